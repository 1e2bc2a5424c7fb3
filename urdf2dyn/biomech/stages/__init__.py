"""The trial's passes, one module each: read (the motion, as coordinates), kinematics (gaps,
filter, derivatives, time range), loads (every source as one external-load object), dynamics
(inverse dynamics, root residuals) and checks. urdf2dyn.biomech.pipeline conducts them."""
