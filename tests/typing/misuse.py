"""Wrong uses of urdf2dyn that mypy must flag, each on a line marked with an error comment
(tests/test_typing.py): proves the annotations exist and are not Any."""
import urdf2dyn

model = urdf2dyn.load(3.0)  # error
nq: str = model.nq  # error
tau: str = model.inverse_dynamics([0.0], [0.0], [0.0])  # error
model.inverse_dynamics([0.0], [0.0])  # error
model.mass_matrix([0.0], f_ext={})  # error
model.jacobian([0.0], 7)  # error
limit: float = model.joints[0].limit  # error
urdf2dyn.set_num_threads("2")  # error
text: int = urdf2dyn.human(1.75, 70.0, "male")  # error
model.no_such_method()  # error
model.q_names.append("x")  # error
