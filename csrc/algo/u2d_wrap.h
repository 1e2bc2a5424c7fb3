/* u2d_wrap.h: one straight path segment wrapped over a wrap object (u2d_wrap.c), for the
 * geometry paths of algo/u2d_path.c. */
#ifndef U2D_WRAP_H
#define U2D_WRAP_H

/* What a wrap gives, as OpenSim's WrapObject::WrapAction. */
typedef enum {
    U2D_WRAPS_NOT = 0,      /* the segment does not touch the object                       */
    U2D_WRAPS_INSIDE,       /* an end point is inside it: no wrap                           */
    U2D_WRAPS,              /* it may wrap: the path keeps the shortest such wrap           */
    U2D_WRAPS_MANDATORY,    /* the straight segment goes through it: it must wrap           */
} u2d_wrap_action;

typedef struct {
    double r1[3], r2[3];    /* where the path leaves the segment's first point's side and
                               rejoins the second's, in the wrap object's frame            */
    double length;          /* of the path on the surface between them                      */
} u2d_wrap_result;

/* Segment p1-p2 (the wrap object's frame) over a cylinder of radius and length along z
 * through the origin, on the side `quadrant` names (0 any, +-1 +-x, +-2 +-y, +-3 +-z).
 * single: the path has this one wrap object (OpenSim then takes the first tangent points
 * it finds; with several it slides them until the helix is tangent to the segments). */
int u2d_wrap_cylinder(double radius, double length, int quadrant, int single,
                      const double p1[3], const double p2[3], u2d_wrap_result *res);

#endif
