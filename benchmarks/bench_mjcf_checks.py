"""How the MJCF reader's reference checks scale: load time of generated models with n joints
and n sensors (jointpos, jointlimitpos, tendonlimitpos, ballquat) and n/4 spatial tendons
wrapping named geoms, and of models with n plugin instances (a mujoco.pid instance driving
each joint's actuator, a touch_grid instance sensing at each body's site, an sdf instance
in each body's geom), for a few n.

    python benchmarks/bench_mjcf_checks.py [--n 500,1000,2000,4000] [--reps 3]

Each sensor names a joint or tendon the checks look up (its type, whether it is limited)
and each tendon a geom (its type), each plugin element an instance (its plugin, its
settings, whether an actuator drives it): a linear search per lookup makes the load time
grow as n^2, a binary search as n log n. Printed: n, the best load time of --reps, and the
time per joint (which stays flat when the checks scale).
"""
import argparse
import time
import warnings

import urdf2dyn


def generated_model(n):
    """A world with n bodies, each with a limited hinge (and every fourth a ball joint), a
    sphere geom and two sites; n/4 fixed tendons with a range, n/4 spatial tendons around
    a geom; n sensors naming the joints and tendons."""
    bodies, tendons, sensors = [], [], []
    for k in range(n):
        joint = (f'<joint name="b{k}" type="ball" range="0 1"/>' if k % 4 == 3
                 else f'<joint name="j{k}" range="-1 1"/>')
        bodies.append(f'<body name="body{k}" pos="{k} 0 0">{joint}'
                      f'<geom name="g{k}" size="0.1"/><site name="s{k}" pos="0 0 0.2"/>'
                      f'<site name="t{k}" pos="0 0 -0.2"/></body>')
    for k in range(0, n, 4):
        tendons.append(f'<fixed name="f{k}" range="0 1"><joint joint="j{k}" coef="1"/></fixed>')
        tendons.append(f'<spatial name="sp{k}"><site site="s{k}"/><geom geom="g{k}"/>'
                       f'<site site="t{k}"/></spatial>')
    for k in range(n):
        kind = k % 4
        sensors.append(f'<jointpos joint="j{k}"/>' if kind == 0 else
                       f'<jointlimitpos joint="j{k}"/>' if kind == 1 else
                       f'<tendonlimitpos tendon="f{k - 2}"/>' if kind == 2 else
                       f'<ballquat joint="b{k}"/>')
    return ("<mujoco><compiler autolimits=\"true\"/><worldbody>" + "".join(bodies) +
            "</worldbody><tendon>" + "".join(tendons) + "</tendon><sensor>" +
            "".join(sensors) + "</sensor></mujoco>")


def plugin_model(n):
    """A world with n bodies, each with a hinge driven by a mujoco.pid instance's actuator, a
    touch_grid instance's sensor at its site and a geom of a torus sdf instance."""
    def declared(plugin, configs):
        return (f'<plugin plugin="{plugin}">' + "".join(
            f'<instance name="{plugin[-3:]}{k}">{configs}</instance>' for k in range(n))
            + "</plugin>")
    extension = (declared("mujoco.pid", '<config key="kp" value="1"/>')
                 + declared("mujoco.sensor.touch_grid", '<config key="size" value="2 2"/>'
                                                        '<config key="fov" value="10 10"/>')
                 + declared("mujoco.sdf.torus", ""))
    bodies = "".join(f'<body name="body{k}" pos="{k} 0 0"><joint name="j{k}"/>'
                     f'<geom size="0.1"><plugin instance="rus{k}"/></geom><site name="s{k}"/>'
                     '</body>' for k in range(n))
    actuators = "".join(f'<plugin instance="pid{k}" joint="j{k}"/>' for k in range(n))
    sensors = "".join(f'<plugin instance="rid{k}" objtype="site" objname="s{k}"/>'
                      for k in range(n))
    return (f"<mujoco><extension>{extension}</extension><worldbody>{bodies}</worldbody>"
            f"<actuator>{actuators}</actuator><sensor>{sensors}</sensor></mujoco>")


def best_load_time(xml, reps):
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
            urdf2dyn.load(xml)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="500,1000,2000,4000")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    print(f"{'model':>8} {'n':>6} {'load (ms)':>10} {'us per joint':>13}")
    for model, make in [("checks", generated_model), ("plugins", plugin_model)]:
        for n in (int(v) for v in args.n.split(",")):
            t = best_load_time(make(n), args.reps)
            print(f"{model:>8} {n:>6} {t * 1e3:>10.1f} {t * 1e6 / n:>13.1f}")


if __name__ == "__main__":
    main()
