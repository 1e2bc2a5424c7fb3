"""OpenSim's own tables, for tests and benchmarks that use OpenSim as the writer or oracle of
.mot/.sto files (opensim.TimeSeriesTable and STOFileAdapter, never urdf2dyn's writer)."""
from __future__ import annotations

import numpy as np


def table(osim, time, values, labels, degrees):
    """An opensim.TimeSeriesTable: rows of values (N, len(labels)) at times (N,), with the
    ``inDegrees`` header OpenSim's readers use."""
    tab = osim.TimeSeriesTable()
    tab.setColumnLabels(list(labels))
    for ti, row in zip(time, values):
        tab.appendRow(float(ti), osim.RowVector([float(x) for x in row]))
    tab.addTableMetaDataString("inDegrees", "yes" if degrees else "no")
    return tab


def write_sto(osim, path, time, values, labels, degrees):
    """A .mot/.sto written by OpenSim's STOFileAdapter."""
    osim.STOFileAdapter.write(table(osim, time, values, labels, degrees), str(path))


def read_table(osim, path):
    """(labels, time (N,), values (N, len(labels))) of a .sto as OpenSim's TimeSeriesTable
    reads it."""
    tab = osim.TimeSeriesTable(str(path))
    labels = list(tab.getColumnLabels())
    values = np.column_stack([tab.getDependentColumn(n).to_numpy() for n in labels])
    return labels, np.array(tab.getIndependentColumn()), values
