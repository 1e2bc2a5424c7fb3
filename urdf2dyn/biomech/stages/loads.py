"""The loads stage: the external loads of a trial, whatever their source."""
from ..gait import CONTACT_THRESHOLD
from ..processing import fill_load_gaps


def _fill_reaction_gaps(reactions, max_gap, source, record):
    notes = []
    for key in sorted(reactions.grf):
        F, P, M, filled, more = fill_load_gaps(
            reactions.time, reactions.grf[key], reactions.cop[key], reactions.moment.get(key),
            key=key, max_gap=max_gap, threshold=CONTACT_THRESHOLD, source=source)
        reactions.grf[key], reactions.cop[key] = F, P
        if M is not None:
            reactions.moment[key] = M
        if filled:
            record["filled_gaps"] += [str(g) for g in filled]
            notes.append(f"{source}: filled {len(filled)} gap(s) in the ground reaction "
                         f"{key!r} by cubic interpolation: " + "; ".join(str(g) for g in filled))
        notes += more
    return notes
