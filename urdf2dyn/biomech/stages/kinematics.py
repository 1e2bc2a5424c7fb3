"""The kinematics stage: gaps, filter, derivatives and time range of the coordinates."""
from ...warn import MotionError
from ..opensim_processing import id_kinematics


def _opensim_kinematics(source, model, t, q, cutoff_hz, warn):
    """OpenSim's processing of the coordinates (urdf2dyn.biomech.opensim_processing)."""
    if model.nq != model.nv:
        raise MotionError(f"{source}: processing='opensim' needs one coordinate per degree of "
                          f"freedom (the model '{model.name}' has nq = {model.nq}, nv = "
                          f"{model.nv}: a quaternion joint); use processing='urdf2dyn'")
    if len(t) < 6:
        raise MotionError(f"{source}: OpenSim's quintic splines need at least 6 samples, got "
                          f"{len(t)}")
    if cutoff_hz is not None:
        fs = (len(t) - 1) / (t[-1] - t[0])
        if cutoff_hz == 0:
            warn(f"{source}: a cutoff of 0 Hz filters the coordinates into a polynomial "
                 "extrapolation of their first samples (OpenSim does so too); use -1 (no "
                 "filter) or a cutoff such as 6 Hz")
        elif cutoff_hz >= fs / 2:
            warn(f"{source}: cutoff {cutoff_hz:g} Hz at or above half the sampling rate "
                 f"({fs / 2:g} Hz): lowered to {0.49 * fs:g} Hz, as OpenSim does")
    try:
        return id_kinematics(t, q, cutoff_hz)
    except ValueError as e:
        raise MotionError(f"{source}: {e}") from None
