#!/usr/bin/env python3
"""Write the bundled synthetic running trial: HuMoD subject A on a treadmill at 3.0 m/s.

    python tools/make_running_demo.py [--outdir urdf2dyn/data] [--strides 5] [--rate 200]

writes ``running_a_3ms.csv`` (time + the 36 coordinates of ``humod_subject_a.urdf``, rad and m)
and ``running_a_3ms_grf.csv`` (time + ``grfX_L .. copZ_L momX_L .. momZ_L`` and the same for
``_R``: force on the foot (N), centre of pressure (m, NaN in flight) and free moment (N·m), world
frame), and prints what it did. The trial is synthetic: smooth periodic joint angles plus ground
reactions consistent with the model, so that the root residuals of inverse dynamics are small.
How it is built (all numbers are the constants below):

1. Timing. Stride time 0.68 s (cadence 176 steps/min, stride length 2.04 m at 3.0 m/s), contact
   time 0.22 s (duty factor 0.32, so each step has a 0.12 s flight). Phase s in [0, 1) from the
   right-foot strike; the left leg is the right leg half a cycle later, mirrored (its X and Y
   angles change sign). Lab frame = HuMoD's treadmill frame: y up, x forward, z right, belt
   surface y = 0, belt moving at -3.0 m/s; the body stays in place on average (mean forward
   velocity 0), as on a treadmill.

2. Joint angles. Every coordinate is a Fourier series in s. Hip, knee and ankle flexion start
   from keypoints read by eye from the mean sagittal running kinematics of Novacheck (1998)
   "The biomechanics of running", Gait & Posture 7:77-95 (running at 3.2 m/s): hip +32 deg at
   strike, -8 deg near toe-off, +43 deg in late swing; knee 18 deg at strike, 40 deg in
   mid-stance, 92 deg in swing; ankle 18 deg dorsiflexion in mid-stance, 18 deg plantarflexion
   after toe-off. ``smooth_fourier`` gives the smoothest series of 6 harmonics through them
   (least squares with a k^4 roughness penalty). Pelvis, trunk, neck and arm angles are a few
   harmonics with textbook amplitudes (``OTHER_ANGLES``): pelvis tilted 10 deg forward,
   obliquity +-5 deg, rotation +-5 deg, thorax counter-rotation, head level, shoulders swinging
   -40..+16 deg against the legs, elbows at 85 +- 10 deg.

3. Stance foot on the belt. During stance the sagittal hip, knee and ankle angles are solved by
   inverse kinematics (Levenberg-Marquardt on the model's foot Jacobian) for a foot that lands
   nearly flat (6 deg toes-up), is flat from 15 % to 40 % of stance and then rolls over the
   forefoot (78 % of the foot length from the heel) to 45 deg toes-down at toe-off, its contact
   point moving backwards with the belt. Stance (IK) and swing (keypoint) angles are joined by
   spreading the mismatch over 15 % of the cycle after toe-off and before the strike, and the
   cycle is refitted with 8 harmonics and a roughness penalty (smooth accelerations). The strike
   position and the mean body height are adjusted so that each step's horizontal impulse is
   zero and the knee is flexed 45 deg in mid-stance. The 1.61 m subject's straight leg cannot
   reach that strike position with the body that high, so the IK weights the fore-aft position
   less (0.2): the foot lands 6.5 cm behind and 2 cm above a planted foot's position and
   catches up with it by a quarter of stance (it slides back slower than the belt meanwhile);
   from there to toe-off it follows the belt within 3 mm (8 mm vertically).

4. Ground reaction force. Vertical: a half-sine over each contact whose mean over the stride is
   body weight, the spring-mass model of running (Blickhan 1989, J. Biomech. 22:1217; McMahon &
   Cheng 1990, J. Biomech. 23:65): peak 2.43 body weights. Horizontal and lateral: the force
   points from a designed centre of pressure (rolling from 15 % of the foot length to the
   forefoot) at the whole-body centre of mass, as in spring-mass running, giving braking then
   propulsion of about 0.2-0.25 body weights.

5. Root translation. The root (pBJX, pBJY, pBJZ) is solved so that the whole-body centre of mass
   follows the periodic double integral of F/m + g exactly: ballistic in flight, mean forward
   velocity 0. The root residual *force* of inverse dynamics is then zero by construction (up to
   how the reader estimates accelerations).

6. Centre of pressure, free moment and trunk. Per stance sample the CoP (on the belt, within the
   part of the sole touching it and 4 cm either side of the ankle) and a free moment about the
   vertical are the least-squares solution that makes the root residual moment smallest; in
   flight there is nothing to apply. What remains is the rate of change of the body's angular
   momentum that no ground reaction can explain; trunk roll, rotation and flexion (rLLJX,
   rULJY, rLLJZ: periodic corrections of up to 6 harmonics, left/right symmetric) and the arm
   swing amplitude are chosen by nonlinear least squares (scipy.optimize.least_squares) to
   minimise the residual moments over the stride, the free moment and the size of the
   corrections. Steps 3-6 are repeated three times, ending with step 3. As a force plate
   reports it, a sample whose vertical force is at most 20 N (urdf2dyn.biomech.gait.CONTACT_THRESHOLD)
   has no load and no centre of pressure (NaN): a CoP there would be the ratio of two
   round-off errors.

The generator evaluates everything from exact (analytic and spectral) derivatives on a 1 kHz grid
of one stride. The files hold positions only (``urdf2dyn torques`` estimates velocities and
accelerations), sampled at --rate Hz over --strides strides, 8 significant digits, starting in
the middle of a flight phase (phase 0.41, after the right toe-off) so that the one-sided
derivative estimates at both ends of the record see smooth, ballistic motion. It needs SciPy
and takes well under a minute; it is deterministic. On the grid: residual force < 1e-6 N,
residual moment RMS about 0.6 N·m (max about 2.5 N·m), free moment below 2 N·m.
"""
import argparse
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
try:
    import urdf2dyn  # noqa: F401  (the installed package)
except ImportError:     # a source tree built in place
    sys.path.insert(0, str(ROOT))

from urdf2dyn.biomech.gait import CONTACT_THRESHOLD  # noqa: E402
from urdf2dyn.biomech.grf import root_residuals  # noqa: E402
from urdf2dyn.biomech.human import HUMOD_SUBJECTS, humod_subject, segment_parameters  # noqa: E402

DEG = np.pi / 180.0
G = 9.81

SUBJECT = "A"
SPEED = 3.0              # treadmill belt speed, m/s
STRIDE_TIME = 0.68       # s
CONTACT_TIME = 0.22      # s
GRID = 680               # samples per stride for the computations (1 kHz)
HARMONICS = 8            # Fourier degree of the final hip, knee and ankle flexion
SMOOTHING = 1e-5         # roughness penalty of that refit (per k^4, relative to the data)
CORRECTED = ("rLLJX", "rULJY", "rLLJZ")   # trunk roll, rotation, flexion: corrected angles
CORRECTION_HARMONICS = 6                   # of the trunk corrections

# Keypoints (phase, degrees) by eye from Novacheck 1998, fig. 5 (running, 3.2 m/s), right leg,
# phase 0 = right-foot strike, toe-off at 0.34. Hip and ankle: flexion/dorsiflexion positive;
# knee: flexion positive (the model's rKJZ is minus this).
HIP_FLEXION = [(0.0, 32), (0.1, 26), (0.2, 15), (0.3, 2), (0.38, -8), (0.45, -5), (0.55, 10),
               (0.65, 28), (0.75, 40), (0.82, 43), (0.92, 38)]
KNEE_FLEXION = [(0.0, 18), (0.06, 30), (0.13, 40), (0.22, 32), (0.32, 18), (0.4, 22),
                (0.5, 55), (0.6, 85), (0.68, 92), (0.76, 80), (0.85, 45), (0.93, 20),
                (0.97, 15)]
ANKLE_DORSIFLEXION = [(0.0, 3), (0.04, 0), (0.16, 18), (0.25, 12), (0.34, -12), (0.4, -18),
                      (0.48, -8), (0.6, 5), (0.75, 8), (0.9, 5)]
# Hip adduction (right leg, + = adduction = rHJX_R > 0) over the cycle.
HIP_ADDUCTION = [(0.0, 3), (0.12, 8), (0.3, 4), (0.45, -2), (0.7, -4), (0.9, 0)]

# Other coordinates: mean and {harmonic: (cos, sin)} in degrees (right side for the arms; the
# left side is derived by symmetry). Sources for the amplitudes: Novacheck 1998 (pelvis),
# Schache et al. 2002 Gait & Posture 15:136 (lumbo-pelvic rotations in running), Hinrichs 1987
# (arm swing cancels the legs' angular momentum about the vertical).
OTHER_ANGLES = {
    "rBJZ": (-10.0, {}),                   # pelvis tilted 10 deg forward
    "rBJX": (0.0, {1: (-4.05, -2.94)}),    # obliquity +-5 deg, other side drops in stance
    "rBJY": (0.0, {1: (5.0, 0.0)}),        # pelvis rotation +-5 deg, right side forward at strike
    "rLLJZ": (3.0, {}), "rULJZ": (1.0, {}),  # trunk leaning 6 deg forward
    "rULJY": (0.0, {1: (-9.0, 0.0)}),      # thorax counter-rotates
    "rLNJY": (0.0, {1: (4.0, 0.0)}), "rLNJZ": (6.0, {}),   # head faces forward, level
    "rSJZ_R": (-12.0, {1: (-28.0, 0.0)}),  # shoulder flexion: arm back at right strike
    "rEJZ_R": (85.0, {1: (-10.0, 0.0)}),   # elbow flexion
    "rSJX_R": (-10.0, {}),                 # 10 deg abduction
    "rHJY_R": (0.0, {1: (3.0, 0.0)}),      # hip rotation
    "rAJX_R": (0.0, {1: (0.0, -4.0)}),     # ankle inversion/eversion
}
MIRRORED = ("X", "Y")                      # axes whose angles change sign from right to left

# Foot geometry along the sole (fractions of the foot length from the heel) and stance.
BALL = 0.78                                # the forefoot point the foot rolls over
HEEL_BEHIND_ANKLE = 0.20                   # as urdf2dyn.human (_LATERAL["heel"])
SOLE_HALF_WIDTH = 0.04                     # m, CoP lateral range about the ankle
FOOT_PITCH_STRIKE = 0.1                    # rad (6 deg toes-up) at the strike
FOOT_PITCH_TOE_OFF = 45.0 * DEG            # toes-down at toe-off
FLAT_FROM, FLAT_TO = 0.15, 0.40            # fractions of stance
KNEE_MIDSTANCE = 45.0 * DEG
START_PHASE = 56 / 136                     # the files start (and end) in mid-flight (0.41)
COP_START = 0.15                           # designed CoP at strike (fraction of foot length)
IK_X_WEIGHT = 0.2                          # weight of the fore-aft foot position in the IK


# ----------------------------------------------------------------------------- Fourier series

def smooth_fourier(points, degree=6, penalty=1e-5):
    """Coefficients [a0, a1, b1, ..] of the smoothest Fourier series of the given degree
    through periodic keypoints [(phase, value)]: least squares + penalty * sum k^4 (a_k^2+b_k^2)."""
    s = np.array([p[0] for p in points], dtype=float)
    y = np.array([p[1] for p in points], dtype=float)
    A = _basis(s, degree)
    pen = np.sqrt(penalty) * np.diag(np.r_[0.0, np.repeat(np.arange(1, degree + 1) ** 4.0, 2)])
    coef, *_ = np.linalg.lstsq(np.vstack([A, pen]), np.r_[y, np.zeros(len(pen))], rcond=None)
    return coef


def _basis(s, degree):
    cols = [np.ones_like(s)]
    for k in range(1, degree + 1):
        cols += [np.cos(2 * np.pi * k * s), np.sin(2 * np.pi * k * s)]
    return np.column_stack(cols)


def harmonics(mean, terms):
    degree = max(terms) if terms else 0
    c = np.zeros(2 * degree + 1)
    c[0] = mean
    for k, (a, b) in terms.items():
        c[2 * k - 1], c[2 * k] = a, b
    return c


def evaluate(coef, s, deriv=0):
    """d^deriv/ds^deriv of the series at phases s."""
    out = np.full_like(s, coef[0] if deriv == 0 else 0.0, dtype=float)
    for k in range(1, (len(coef) - 1) // 2 + 1):
        w = 2 * np.pi * k
        a, b = coef[2 * k - 1], coef[2 * k]
        c, sn = np.cos(w * s), np.sin(w * s)
        if deriv == 0:
            out += a * c + b * sn
        elif deriv == 1:
            out += w * (b * c - a * sn)
        else:
            out -= w * w * (a * c + b * sn)
    return out


def shifted(coef, ds):
    """Coefficients of f(s - ds)."""
    c = np.array(coef, dtype=float)
    for k in range(1, (len(c) - 1) // 2 + 1):
        a, b = c[2 * k - 1], c[2 * k]
        ph = 2 * np.pi * k * ds
        c[2 * k - 1], c[2 * k] = a * np.cos(ph) - b * np.sin(ph), a * np.sin(ph) + b * np.cos(ph)
    return c


def added(c1, c2):
    out = np.zeros(max(len(c1), len(c2)))
    out[:len(c1)] += c1
    out[:len(c2)] += c2
    return out


def fit_samples(s, y, degree, weights=None, penalty=0.0):
    """Weighted least-squares Fourier fit of samples, with the roughness penalty
    penalty * len(s) * sum k^4 (a_k^2 + b_k^2)."""
    A = _basis(s, degree)
    w = np.ones_like(s) if weights is None else weights
    pen = np.sqrt(penalty * len(s)) * np.diag(np.r_[0.0, np.repeat(np.arange(1, degree + 1) ** 2.0,
                                                                     2)] ** 2)
    coef, *_ = np.linalg.lstsq(np.vstack([A * w[:, None], pen]), np.r_[y * w, np.zeros(len(pen))],
                               rcond=None)
    return coef


def spectral(x, period, deriv):
    """Derivative (deriv = 1, 2) or, for deriv = -2, the zero-mean double integral, of periodic
    samples x (M, ...) over one period (FFT)."""
    M = x.shape[0]
    X = np.fft.rfft(x, axis=0)
    w = 2 * np.pi * np.fft.rfftfreq(M, d=period / M)
    w = w.reshape((-1,) + (1,) * (x.ndim - 1))
    if deriv == -2:
        Y = np.zeros_like(X)
        Y[1:] = -X[1:] / w[1:] ** 2
    elif deriv == -1:
        Y = np.zeros_like(X)
        Y[1:] = X[1:] / (1j * w[1:])
    else:
        Y = (1j * w) ** deriv * X
        if deriv % 2 and M % 2 == 0:
            Y[-1] = 0
    return np.fft.irfft(Y, n=M, axis=0)


# ----------------------------------------------------------------------------- the trial

class Runner:
    """One stride of the synthetic running trial, for one subject."""

    def __init__(self, subject=SUBJECT):
        sex, mass, height = HUMOD_SUBJECTS[subject]
        self.model = humod_subject(subject)
        self.mass = self.model.total_mass
        par = segment_parameters(height, mass, sex)
        self.foot_length = par["lengths"]["foot"]
        self.ankle_height = par["lengths"]["ankle_height"]
        self.T, self.d = STRIDE_TIME, CONTACT_TIME / STRIDE_TIME
        self.s = np.arange(GRID) / GRID
        self.idx = {n: k for k, n in enumerate(self.model.q_names)}
        self.links = self.model.link_names
        # the right leg's stance samples (the left one's are half a cycle later)
        self.stance = self.s < self.d
        self.u = self.s[self.stance] / self.d
        self.x_strike = 0.40          # heel x at right-foot strike (m, lab frame); adjusted
        self.com_height = 0.85        # mean CoM height above the belt (m); adjusted
        self.arm_scale = 1.0
        # trunk corrections (rad): odd harmonics for roll and rotation (left/right
        # antisymmetric), even ones for the flexion
        self.trunk_corr = {name: np.zeros(2 * len(_correction_harmonics(name)))
                           for name in CORRECTED}
        self.coef = self._initial_angles()

    # ---- joint angles ------------------------------------------------------------
    def _initial_angles(self):
        right = {
            "rHJZ": smooth_fourier(HIP_FLEXION),
            "rKJZ": -smooth_fourier(KNEE_FLEXION),
            "rAJZ": smooth_fourier(ANKLE_DORSIFLEXION),
            "rHJX": smooth_fourier(HIP_ADDUCTION, degree=3, penalty=1e-4),
        }
        coef = {}
        for name, c in right.items():
            coef[f"{name}_R"] = c * DEG
        for name, (mean, terms) in OTHER_ANGLES.items():
            coef[name] = harmonics(mean, terms) * DEG
        return coef

    def angles(self):
        """{coordinate: Fourier coefficients (rad)} of every angle, both sides, with the trunk
        corrections and the arm scale applied."""
        out = {}
        for name, c in self.coef.items():
            if name.endswith("_R"):
                base = name[:-2]
                if base in ("rSJZ", "rEJZ"):
                    c = c.copy()
                    c[1:] *= self.arm_scale
                out[name] = c
                left = shifted(c, 0.5)
                out[base + "_L"] = -left if base[-1] in MIRRORED else left
            else:
                out[name] = c
        for name in CORRECTED:
            corr = np.zeros(2 * CORRECTION_HARMONICS + 1)
            for n, k in enumerate(_correction_harmonics(name)):
                corr[2 * k - 1:2 * k + 1] = self.trunk_corr[name][2 * n:2 * n + 2]
            out[name] = added(out.get(name, np.zeros(1)), corr)
        return out

    def kinematics(self, s=None):
        """q, v, a (M, 36) of the angles (root translation 0) at phases s (default: the grid)."""
        s = self.s if s is None else s
        q = np.zeros((len(s), 36))
        v, a = np.zeros_like(q), np.zeros_like(q)
        for name, c in self.angles().items():
            k = self.idx[name]
            q[:, k] = evaluate(c, s)
            v[:, k] = evaluate(c, s, 1) / self.T
            a[:, k] = evaluate(c, s, 2) / self.T ** 2
        return q, v, a

    # ---- forces and the centre of mass ----------------------------------------------
    def vertical_force(self):
        """(M,) vertical force and (M,) contact foot (0 right, 1 left, -1 flight)."""
        fy, foot = np.zeros(GRID), np.full(GRID, -1)
        for k, s0 in enumerate((0.0, 0.5)):
            u = ((self.s - s0) % 1.0) / self.d
            on = u < 1
            fy[on] = np.sin(np.pi * u[on])
            foot[on] = k
        # the mean over the stride's samples is body weight (peak ~ pi T / (4 t_contact) BW)
        return fy * self.mass * G / fy.mean(), foot

    def design(self, q_rel, cop):
        """Force (M, 3) pointing from the designed CoP at the CoM, and the root translation
        (q, v, a of pBJX..pBJZ) that makes the CoM follow F/m + g."""
        fy, foot = self.vertical_force()
        com_rel = self.model.center_of_mass(q_rel)
        F = np.zeros((GRID, 3))
        F[:, 1] = fy
        com = None
        for _ in range(20):                       # F depends on the CoM, the CoM on F
            if com is None:
                com = np.column_stack([np.zeros(GRID), np.full(GRID, self.com_height),
                                       np.zeros(GRID)])
            on = foot >= 0
            lever = com[on] - cop[on]
            F_new = F.copy()
            F_new[on, 0] = fy[on] * lever[:, 0] / lever[:, 1]
            F_new[on, 2] = fy[on] * lever[:, 2] / lever[:, 1]
            # no net horizontal impulse per stride (steady running): remove the mean of each
            # horizontal component in proportion to the vertical force
            for c in (0, 2):
                F_new[:, c] -= fy * F_new[:, c].sum() / fy.sum()
            acc = F_new / self.mass + np.array([0.0, -G, 0.0])
            com_new = spectral(acc, self.T, -2)
            com_new[:, 1] += self.com_height
            change = np.abs(com_new - com).max()
            F, com = F_new, com_new
            if change < 1e-10:
                break
        acc = F / self.mass + np.array([0.0, -G, 0.0])
        vel = spectral(acc, self.T, -1)
        q_root = com - com_rel
        v_root = vel - spectral(com_rel, self.T, 1)
        a_root = acc - spectral(com_rel, self.T, 2)
        return F, foot, com, q_root, v_root, a_root

    def full_state(self, cop):
        q, v, a = self.kinematics()
        F, foot, com, qr, vr, ar = self.design(q, cop)
        q[:, :3], v[:, :3], a[:, :3] = qr, vr, ar
        return q, v, a, F, foot, com

    # ---- stance foot on the belt ----------------------------------------------------
    def foot_targets(self):
        """Right-foot targets over stance: ankle (x, y), foot pitch, designed CoP x."""
        u = self.u
        t = u * CONTACT_TIME
        L, h = self.foot_length, self.ankle_height
        heel_x = self.x_strike - SPEED * t                 # heel sole point moves with the belt
        ball_x = heel_x + BALL * L
        pitch = np.zeros_like(u)
        a = u < FLAT_FROM
        pitch[a] = FOOT_PITCH_STRIKE * (1 - u[a] / FLAT_FROM) ** 2
        c = u > FLAT_TO
        pitch[c] = -FOOT_PITCH_TOE_OFF * ((u[c] - FLAT_TO) / (1 - FLAT_TO)) ** 2
        # ankle = pivot + R(pitch) (ankle - pivot)_foot
        heel_to_ankle = np.array([HEEL_BEHIND_ANKLE * L, h])
        ball_to_ankle = np.array([(HEEL_BEHIND_ANKLE - BALL) * L, h])
        ankle = np.empty((len(u), 2))
        pivot_ball = u > FLAT_TO
        for mask, pivot_x, off in ((~pivot_ball, heel_x, heel_to_ankle),
                                   (pivot_ball, ball_x, ball_to_ankle)):
            cp, sp = np.cos(pitch[mask]), np.sin(pitch[mask])
            ankle[mask, 0] = pivot_x[mask] + cp * off[0] - sp * off[1]
            ankle[mask, 1] = sp * off[0] + cp * off[1]
        frac = np.clip((u - 0.05) / 0.6, 0.0, 1.0)
        cop_x = heel_x + L * (COP_START + (BALL - COP_START) * (3 * frac ** 2 - 2 * frac ** 3))
        return ankle, pitch, cop_x

    def stance_ik(self, q, iterations=30):
        """Hip, knee and ankle flexion of the right leg over stance (rad, (n, 3)) that put the
        ankle and the foot pitch on their targets (Levenberg-Marquardt per sample; the knee
        never straighter than 2 deg), the rest of q as given; and the largest error left."""
        ankle, pitch, _ = self.foot_targets()
        qs = q[self.stance].copy()
        cols = [self.idx[n] for n in ("rHJZ_R", "rKJZ_R", "rAJZ_R")]
        foot = self.links.index("foot_R")

        weight = np.array([IK_X_WEIGHT, 1.0, 1.0])

        def error(qq):
            pos, rot = self.model.forward_kinematics(qq)
            p, R = pos[:, foot], rot[:, foot]
            return weight * np.column_stack([p[:, 0] - ankle[:, 0], p[:, 1] - ankle[:, 1],
                                             np.arcsin(np.clip(R[:, 1, 0], -1, 1)) - pitch])

        qs[:, cols[1]] = np.minimum(qs[:, cols[1]], -2.0 * DEG)
        err = error(qs)
        lam = np.full(len(qs), 1e-3)
        for _ in range(iterations):
            J = weight[:, None] * self.model.jacobian(qs, "foot_R")[:, [0, 1, 5]][:, :, cols]
            JT = np.swapaxes(J, 1, 2)
            A = JT @ J + lam[:, None, None] * np.eye(3)
            step = np.linalg.solve(A, JT @ err[..., None])[..., 0]
            trial = qs.copy()
            trial[:, cols] -= step
            trial[:, cols[1]] = np.minimum(trial[:, cols[1]], -2.0 * DEG)
            new = error(trial)
            better = (new ** 2).sum(1) < (err ** 2).sum(1)
            qs[better], err[better] = trial[better], new[better]
            lam = np.where(better, lam * 0.3, lam * 10.0)
            if np.abs(err).max() < 1e-9:
                break
        return qs[:, cols], np.abs(err).max()

    def blend(self, ik):
        """New Fourier coefficients for hip, knee, ankle flexion: IK in stance, the keypoint
        curves in swing with the mismatch at toe-off and strike spread over 15 % of the cycle."""
        s, d = self.s, self.d
        width = 0.15
        fit_weights = np.where(self.stance, 3.0, 1.0)
        for k, (name, points, sign) in enumerate((("rHJZ_R", HIP_FLEXION, 1),
                                                  ("rKJZ_R", KNEE_FLEXION, -1),
                                                  ("rAJZ_R", ANKLE_DORSIFLEXION, 1))):
            template = sign * evaluate(smooth_fourier(points), s) * DEG
            y = template.copy()
            y[self.stance] = ik[:, k]
            jump_off = ik[-1, k] - template[self.stance][-1]
            jump_on = ik[0, k] - template[0]
            sw = ~self.stance
            x_off = (s[sw] - d) / width
            x_on = (1.0 - s[sw]) / width
            y[sw] += jump_off * _taper(x_off) + jump_on * _taper(x_on)
            self.coef[name] = fit_samples(s, y, HARMONICS, fit_weights, SMOOTHING)

    def contact_boxes(self, q, foot):
        """(M, 4) x-min, x-max, z-min, z-max of the sole part within 1 cm of the lowest sole
        point of the stance foot (NaN in flight)."""
        pos, rot = self.model.forward_kinematics(q)
        L, h = self.foot_length, self.ankle_height
        box = np.full((GRID, 4), np.nan)
        fr = np.linspace(0.0, 1.0, 21)        # heel .. toe tip
        pts = np.column_stack([(fr - HEEL_BEHIND_ANKLE) * L, np.full_like(fr, -h),
                               np.zeros_like(fr)])
        for k, side in enumerate("RL"):
            on = foot == k
            li = self.links.index(f"foot_{side}")
            sole = pos[on, li][:, None, :] + np.einsum("nij,pj->npi", rot[on, li], pts)
            # the sole points at or below the belt (the rigid toes dip below it when the foot
            # rolls over the ball), or the lowest ones when the foot does not reach it
            near = sole[:, :, 1] <= np.maximum(sole[:, :, 1].min(axis=1, keepdims=True), 0) + 0.01
            xs = np.where(near, sole[:, :, 0], np.nan)
            box[on, 0], box[on, 1] = np.nanmin(xs, axis=1), np.nanmax(xs, axis=1)
            box[on, 2] = pos[on, li, 2] - SOLE_HALF_WIDTH
            box[on, 3] = pos[on, li, 2] + SOLE_HALF_WIDTH
        return box, pos

    def designed_cop(self, q):
        """(M, 3) designed CoP (rolling heel -> ball, on the belt, under the ankle laterally)."""
        _, _, cop_x = self.foot_targets()
        pos, _ = self.model.forward_kinematics(q)
        cop = np.zeros((GRID, 3))
        n = self.stance.sum()
        for k, side in enumerate("RL"):
            rows = np.flatnonzero(self.stance) if k == 0 else \
                (np.flatnonzero(self.stance) + GRID // 2) % GRID
            cop[rows, 0] = cop_x[:n]
            cop[rows, 2] = pos[rows, self.links.index(f"foot_{side}"), 2]
        return cop

    # ---- the consistent reactions --------------------------------------------------
    def reactions(self, q, v, a, foot):
        """Least-squares CoP and free moment per stance sample; returns (F, cop, free, residual
        moment about the root, tau without ground reactions)."""
        tau0 = self.model.inverse_dynamics(q, v, a)
        need = root_residuals(self.model, q, tau0)          # what the ground must supply
        F = need.force
        M_O = need.moment + np.cross(need.point, F)         # about the world origin
        box, _ = self.contact_boxes(q, foot)
        on = foot >= 0
        cop = np.full((GRID, 3), np.nan)
        free = np.zeros(GRID)
        # M_O = p x F + free * e_y, p = (px, 0, pz):  Mx = -pz Fy,  Mz = px Fy (Fx, Fz terms
        # need py != 0, here py = 0),  My = pz Fx - px Fz + free
        fy = F[on, 1]
        px = np.clip(M_O[on, 2] / fy, box[on, 0], box[on, 1])
        pz = np.clip(-M_O[on, 0] / fy, box[on, 2], box[on, 3])
        cop[on] = np.column_stack([px, np.zeros_like(px), pz])
        free[on] = M_O[on, 1] - (pz * F[on, 0] - px * F[on, 2])
        applied = np.zeros((GRID, 6))
        applied[on, :3] = F[on]
        applied[on, 3:] = np.cross(cop[on], F[on])
        applied[on, 4] += free[on]
        resid = np.column_stack([F, M_O]) - applied
        # moment residual about the root origin
        res_m = resid[:, 3:] - np.cross(need.point, resid[:, :3])
        return F, cop, free, res_m, resid[:, :3]

    def optimise_trunk(self, cop_design, max_nfev=60):
        from scipy.optimize import least_squares

        sizes = [len(self.trunk_corr[n]) for n in CORRECTED]
        # regularization growing with the harmonic (k^2: penalizes the accelerations)
        reg = np.concatenate([5.0 * np.repeat(np.array(_correction_harmonics(n), float) ** 2, 2)
                              for n in CORRECTED])

        def unpack(x):
            parts = np.split(x[:-1], np.cumsum(sizes)[:-1])
            self.trunk_corr = dict(zip(CORRECTED, parts))
            self.arm_scale = 1.0 + x[-1]

        def fun(x):
            unpack(x)
            q, v, a, _, foot, _ = self.full_state(cop_design)
            _, _, free, res_m, _ = self.reactions(q, v, a, foot)
            scale = 1.0 / np.sqrt(GRID)
            return np.concatenate([res_m.ravel() * scale, 0.5 * free * scale,
                                   reg * x[:-1], [10.0 * x[-1]]])

        x0 = np.r_[np.concatenate([self.trunk_corr[n] for n in CORRECTED]), self.arm_scale - 1.0]
        sol = least_squares(fun, x0, x_scale=0.01, max_nfev=max_nfev)
        unpack(sol.x)
        return sol

    def build(self, log=print, outer=3):
        """Iterate foot placement (IK), forces and trunk corrections; returns the stride."""
        # start with the stance centred under the hip
        self.x_strike = 0.0
        ankle, _, _ = self.foot_targets()
        self.x_strike = -0.5 * (ankle[0, 0] + ankle[-1, 0])
        for it in range(outer + 1):
            for inner in range(8):
                q, v, a = self.kinematics()
                cop = self.designed_cop(q)
                q, v, a, F, foot, com = self.full_state(cop)
                ik, err = self.stance_ik(q)
                mid = np.argmin(np.abs(self.u - 0.5))
                knee = -ik[mid, 1]
                self.blend(ik)
                # horizontal impulse of a step ~ sum Fy (com_x - cop_x): centre the stance under
                # the CoM; knee flexion at mid-stance -> body height
                on = foot == 0
                lever = (com[on, 0] - cop[on, 0]) * F[on, 1]
                shift = lever.sum() / F[on, 1].sum()
                self.x_strike += shift
                self.com_height += _height_step(knee - KNEE_MIDSTANCE)
                log(f"  outer {it} inner {inner}: IK error {err * 1e3:.2f} mm/mrad, strike "
                    f"shift {shift * 1e3:+.1f} mm, knee mid-stance {knee / DEG:.1f} deg, "
                    f"CoM height {self.com_height:.3f} m")
                if abs(shift) < 5e-4 and abs(knee - KNEE_MIDSTANCE) < 0.2 * DEG:
                    break
            if it == outer:
                break                      # end with the feet placed on the belt
            q, v, a = self.kinematics()
            cop = self.designed_cop(q)
            sol = self.optimise_trunk(cop)
            log(f"  outer {it}: trunk corrections: cost {sol.cost:.3g} after {sol.nfev} "
                f"evaluations, arm swing x{self.arm_scale:.3f}")
        q, v, a = self.kinematics()
        cop_d = self.designed_cop(q)
        q, v, a, F, foot, com = self.full_state(cop_d)
        F, cop, free, res_m, res_f = self.reactions(q, v, a, foot)
        return dict(q=q, v=v, a=a, F=F, foot=foot, cop=cop, free=free, residual_moment=res_m,
                    residual_force=res_f, com=com)


def _correction_harmonics(name):
    """Harmonics of a trunk correction: odd for roll and yaw (their value half a cycle later is
    the mirror image, i.e. minus), even for the pitch (the same for both steps)."""
    odd = not name.endswith("Z")
    return [k for k in range(1, CORRECTION_HARMONICS + 1) if (k % 2 == 1) == odd]


def _taper(x):
    """1 at x = 0 falling smoothly to 0 at x >= 1 (cos^2)."""
    x = np.clip(x, 0.0, 1.0)
    return np.cos(0.5 * np.pi * x) ** 2


def _height_step(knee_error):
    """Body-height change for a mid-stance knee-flexion error (rad): the hip-ankle distance
    shrinks by about 0.15 m per rad of knee flexion near 40 deg (lower the body to flex more)."""
    return 0.15 * knee_error


# ----------------------------------------------------------------------------- output

def _fourier_interp(x, s):
    M = x.shape[0]
    X = np.fft.rfft(x, axis=0) / M
    k = np.arange(X.shape[0])
    out = np.real(X[0]) * np.ones((len(s),) + x.shape[1:])
    for kk in k[1:]:
        fac = 1.0 if (M % 2 == 0 and kk == M // 2) else 2.0
        out += fac * np.real(X[kk] * np.exp(2j * np.pi * kk * s)[:, None])
    return out


def stance_samples(runner, stride, s, side):
    """Reaction values at phases s by linear interpolation of the grid within that foot's
    stance (exact 0 / NaN in flight)."""
    k = "RL".index(side)
    s0 = 0.0 if side == "R" else 0.5
    u = ((s - s0) % 1.0) / runner.d
    on = u < 1
    grid_u = ((runner.s - s0) % 1.0) / runner.d
    rows = np.flatnonzero(stride["foot"] == k)
    order = rows[np.argsort(grid_u[rows])]
    gu = grid_u[order]
    F = np.zeros((len(s), 3))
    cop = np.full((len(s), 3), np.nan)
    free = np.zeros(len(s))
    # force: half-sine magnitude known exactly; interpolate all components on u
    for c in range(3):
        F[on, c] = np.interp(u[on], np.r_[gu, 1.0], np.r_[stride["F"][order, c], 0.0])
        cop[on, c] = np.interp(u[on], gu, stride["cop"][order, c])
    free[on] = np.interp(u[on], np.r_[gu, 1.0], np.r_[stride["free"][order], 0.0])
    return F, cop, free


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--outdir", default=str(ROOT / "urdf2dyn" / "data"))
    ap.add_argument("--strides", type=int, default=5)
    ap.add_argument("--rate", type=float, default=200.0)
    ap.add_argument("--name", default="running_a_3ms")
    args = ap.parse_args(argv)

    runner = Runner(SUBJECT)
    print(f"subject {SUBJECT}: {runner.mass:.1f} kg; stride {STRIDE_TIME} s, contact "
          f"{CONTACT_TIME} s, belt {SPEED} m/s")
    stride = runner.build()
    m = runner.model
    weight = runner.mass * G
    rm = np.linalg.norm(stride["residual_moment"], axis=1)
    rf = np.linalg.norm(stride["residual_force"], axis=1)
    print(f"one stride on the {GRID}-sample grid: residual force max {rf.max():.2e} N; "
          f"residual moment RMS {np.sqrt(np.mean(rm ** 2)):.2f} N·m, max {rm.max():.2f} N·m; "
          f"peak vertical GRF {stride['F'][:, 1].max() / weight:.2f} BW, fore-aft "
          f"{stride['F'][:, 0].min() / weight:.2f}..{stride['F'][:, 0].max() / weight:.2f} BW, "
          f"free moment max {np.abs(stride['free']).max():.1f} N·m")

    ankle, _, _ = runner.foot_targets()
    pos, _ = m.forward_kinematics(stride["q"][runner.stance])
    miss = np.linalg.norm(pos[:, runner.links.index("foot_R"), :2] - ankle, axis=1)
    late = runner.u >= 0.25
    print(f"stance foot vs a foot planted on the belt: {miss[0] * 1e3:.0f} mm off at the strike, "
          f"within {miss[late].max() * 1e3:.1f} mm from 25 % of stance to toe-off")

    n = int(round(args.strides * runner.T * args.rate))
    t = np.arange(n) / args.rate
    s = (START_PHASE + t / runner.T) % 1.0
    q, _, _ = runner.kinematics(s)
    q[:, :3] = _fourier_interp(stride["q"][:, :3], s)
    out = pathlib.Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    motion = out / f"{args.name}.csv"
    np.savetxt(motion, np.column_stack([t, q]), delimiter=",", fmt="%.8g", comments="",
               header=",".join(["time", *m.q_names]))
    cols, header = [t], ["time"]
    for side in "LR":
        F, cop, free = stance_samples(runner, stride, s, side)
        # as a force plate reports it: below the contact threshold no load and no CoP (a CoP
        # where the vertical force is ~1e-9 N is the ratio of two round-off errors)
        off = ~(F[:, 1] > CONTACT_THRESHOLD)
        F[off], free[off], cop[off] = 0.0, 0.0, np.nan
        mom = np.zeros((len(s), 3))
        mom[:, 1] = free
        for kind, x in (("grf", F), ("cop", cop), ("mom", mom)):
            cols.append(x)
            header += [f"{kind}{ax}_{side}" for ax in "XYZ"]
    grf_path = out / f"{args.name}_grf.csv"
    np.savetxt(grf_path, np.column_stack(cols), delimiter=",", fmt="%.8g", comments="",
               header=",".join(header))
    print(f"wrote {motion} ({motion.stat().st_size / 1e3:.0f} kB) and {grf_path} "
          f"({grf_path.stat().st_size / 1e3:.0f} kB): {n} samples at {args.rate:g} Hz, "
          f"{args.strides} strides")


if __name__ == "__main__":
    main()
