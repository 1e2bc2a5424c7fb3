/* u2d_osimdoc.h: what an OpenSim model holds beyond its rigid-body tree, as read by
 * parse/u2d_osim.c and parse/u2d_osim_path.c: the joints' offset frames, where each marker
 * and path point is written, the forces' geometry paths and the wrap objects they use,
 * the muscles' lengths, the bodies' display geometry. algo/u2d_path.c evaluates the paths;
 * parse/u2d_osim_write.c writes changed values back into the document (the scaling
 * workflow and residual reduction change a model this way).
 *
 * Every entry keeps `node`, the ordinal of its element in the document (u2d_xml_ordinal):
 * the writer loads the same text again and changes the very element the reader read, so
 * what urdf2dyn does not model stays as it was written. -1: no element. */
#ifndef U2D_OSIMDOC_H
#define U2D_OSIMDOC_H

#include "model/u2d_spatial.h"

/* A frame a joint is attached by: OpenSim 4's PhysicalOffsetFrame in the joint's
 * <frames>, or OpenSim 3's joint location in the parent body (location_in_parent,
 * orientation_in_parent) and in the child body (location, orientation). */
typedef enum {
    U2D_FRAME_OFFSET = 0,   /* <PhysicalOffsetFrame>: <translation>, <orientation>          */
    U2D_FRAME_IN_PARENT,    /* OpenSim 3 <Joint>: <location_in_parent>, <orientation_in_parent> */
    U2D_FRAME_IN_CHILD,     /* OpenSim 3 <Joint>: <location>, <orientation>                */
} u2d_frame_kind;

typedef struct {
    const char *name;       /* the PhysicalOffsetFrame's name; OpenSim 3: "parent" / "child" */
    int joint;              /* u2d_urdf joint it belongs to; -1: of a <components> list    */
    int kind;               /* u2d_frame_kind                                              */
    int link;               /* the link its translation is measured on (the base body of its
                               parent frame): scaling multiplies it by that body's factors */
    double translation[3];  /* m, as written                                               */
    double orientation[3];  /* rad, body-fixed X-Y-Z, as written                           */
    int node;
} u2d_osim_frame;

/* A model marker as written (u2d_marker holds it in its link's frame). */
typedef struct {
    u2d_xform X;            /* link frame -> the frame its location is written in          */
    double location[3];     /* m, as written, in that frame                                */
    int fixed;              /* <fixed>: marker placement leaves it where it is             */
    int node;
} u2d_osim_marker;

typedef enum { U2D_POINT_FIXED = 0, U2D_POINT_CONDITIONAL, U2D_POINT_MOVING } u2d_point_kind;

/* A point of a geometry path: fixed on a link, fixed but active only while a coordinate is
 * in a range (ConditionalPathPoint), or moving with coordinates (MovingPathPoint: each
 * axis a function of one coordinate). */
typedef struct {
    const char *name;
    int kind;               /* u2d_point_kind                                              */
    int link;               /* the link it rides on                                        */
    u2d_xform X;            /* link frame -> the frame its location is written in          */
    double location[3];     /* m, in that frame (MOVING: axes without a coordinate)        */
    int coord;              /* CONDITIONAL: the coordinate (index in u2d_urdf.coord)       */
    double range[2];        /* CONDITIONAL: the point is on the path for range[0]<=q<=range[1] */
    int mcoord[3];          /* MOVING: per axis the coordinate (-1: none) ...              */
    int mfunc[3];           /* ... and the function of it (index in u2d_urdf.func), -1 none */
    int fnode[3];           /* MOVING: each function's element                            */
    int node;
} u2d_osim_point;

typedef enum {
    U2D_WRAP_CYLINDER = 0, U2D_WRAP_SPHERE, U2D_WRAP_ELLIPSOID, U2D_WRAP_TORUS,
    U2D_WRAP_OTHER,         /* a wrap object urdf2dyn does not know (kept, not evaluated)    */
} u2d_wrap_type;

/* A named component OpenSim 4.6 checks the name of that no table above holds: a
 * constraint, a contact geometry, a wrap object of the ground, an entry of a <components>
 * list (kind: a static word). */
typedef struct {
    const char *kind;
    const char *name;
} u2d_osim_named;

/* A wrap object of a body's WrapObjectSet. */
typedef struct {
    const char *name;
    int type;               /* u2d_wrap_type                                               */
    int link;
    double translation[3];  /* m, in the body frame                                       */
    double rotation[3];     /* rad, body-fixed X-Y-Z (<xyz_body_rotation>)                 */
    double size[3];         /* cylinder: radius, length; sphere: radius; ellipsoid: the
                               three semi-axes; torus: inner, outer radius                */
    int quadrant;           /* 0: all; +-1, +-2, +-3: the +-x, +-y, +-z half only           */
    int active;
    int node;
} u2d_osim_wrap;

typedef enum { U2D_WRAP_HYBRID = 0, U2D_WRAP_MIDPOINT, U2D_WRAP_AXIAL } u2d_wrap_method;

/* One <PathWrap> of a path: the wrap object and the points it may wrap between. */
typedef struct {
    int wrap;               /* index in u2d_osimdoc.wrap                                   */
    int range[2];           /* first and last point, 1-based as written; -1: the path's end */
    int method;             /* u2d_wrap_method                                             */
} u2d_osim_pathwrap;

/* The lengths of a force that OpenSim's scaling multiplies by the ratio of the scaled to
 * the unscaled path length (what each class's postScale does). */
typedef enum {
    U2D_LENGTHS_NONE = 0,   /* none (RigidTendonMuscle, PathActuator, ...)                 */
    U2D_LENGTHS_MUSCLE,     /* <optimal_fiber_length>, <tendon_slack_length>               */
    U2D_LENGTHS_RESTING,    /* <resting_length> (Ligament, PathSpring, ...)                */
    U2D_LENGTHS_SLACK,      /* <slack_length> (Blankevoort1991Ligament)                    */
} u2d_lengths_kind;

/* A force with a geometry path (a muscle, ligament, path spring or path actuator). */
typedef struct {
    const char *name;
    const char *type;       /* its element: "Thelen2003Muscle", "Ligament", ...             */
    int lengths;            /* u2d_lengths_kind                                            */
    double length[2];       /* m, as written (the ones `lengths` names)                    */
    int point0, npoint;     /* its points: u2d_osimdoc.point[point0 ..]                    */
    int wrap0, nwrap;       /* its path wraps: u2d_osimdoc.pathwrap[wrap0 ..]              */
    int node;
} u2d_osim_path;

/* Display geometry with <scale_factors> (a Mesh of a body or offset frame, OpenSim 3's
 * VisibleObject): scaled with its base body. */
typedef struct {
    int link;
    double scale[3];
    int node;               /* the element holding <scale_factors>                         */
} u2d_osim_geometry;

typedef struct {
    int version;            /* <OpenSimDocument Version>, 0 if absent                     */
    int model;              /* the <Model> element                                         */
    int markerset;          /* the <MarkerSet>'s <objects> element (new markers go there),
                               -1 when the model has none                                  */
    int *link_node;         /* (nlink)  each body's <Body> element (ground's <Ground>)      */
    int *axis_node;         /* (ncustom,6) the function element of each custom joint's
                               <TransformAxis>, -1 where none is written                   */
    int *coupler_node;      /* (ncoupler)                                                  */
    u2d_osim_marker *marker;    /* (nmarker) beside u2d_urdf.marker                       */
    int nframe, npath, npoint, nwrap, npathwrap, ngeometry;
    u2d_osim_frame *frame;      /* (nframe) joint by joint                                 */
    u2d_osim_path *path;        /* (npath) in ForceSet order                               */
    u2d_osim_point *point;      /* (npoint) path by path                                   */
    u2d_osim_wrap *wrap;        /* (nwrap) body by body                                    */
    u2d_osim_pathwrap *pathwrap;/* (npathwrap) path by path                                */
    u2d_osim_geometry *geometry;/* (ngeometry)                                             */
    int nnamed;
    u2d_osim_named *named;      /* (nnamed) in file order                                  */
} u2d_osimdoc;

/* ---- the .osim writer (parse/u2d_osim_write.c) ---------------------------------------- */

/* One change to the document: `target` indexes the table the kind names, v the values
 * (u2d_osim_write, declared in u2d_model.h). */
typedef enum {
    U2D_EDIT_BODY_MASS = 0,     /* link: v[0] kg                                           */
    U2D_EDIT_BODY_COM,          /* link: v[0..2] m in the body frame                        */
    U2D_EDIT_BODY_INERTIA,      /* link: v[0..5] xx yy zz xy xz yz, kg m^2, about the centre
                                   of mass in body axes                                     */
    U2D_EDIT_FRAME_TRANSLATION, /* frame: v[0..2] m                                         */
    U2D_EDIT_FRAME_ORIENTATION, /* frame: v[0..2] rad, body-fixed X-Y-Z                      */
    U2D_EDIT_MARKER,            /* marker: v[0..2] m in the frame it is written in           */
    U2D_EDIT_MARKER_REMOVE,     /* marker                                                   */
    U2D_EDIT_MARKER_ADD,        /* link: a new marker `name` at v[0..2] (link frame), fixed
                                   when flag is set                                         */
    U2D_EDIT_POINT,             /* point: v[0..2] m in the frame it is written in            */
    U2D_EDIT_POINT_SCALE,       /* point (moving): v[0..2] multiply its x, y, z functions    */
    U2D_EDIT_LENGTHS,           /* path: v[0], v[1] the lengths its kind names, m (NaN: kept) */
    U2D_EDIT_WRAP_TRANSLATION,  /* wrap: v[0..2] m in the body frame                         */
    U2D_EDIT_WRAP_SIZE,         /* wrap: v[0..2] as u2d_osim_wrap.size                       */
    U2D_EDIT_AXIS_SCALE,        /* custom joint * 6 + axis: v[0] multiplies its function     */
    U2D_EDIT_COUPLER_SCALE,     /* coupler: v[0] its scale_factor                            */
    U2D_EDIT_GEOMETRY_SCALE,    /* geometry: v[0..2] its scale_factors                        */
    U2D_EDIT_ELLIPSOID,         /* u2d_urdf joint (ELLIPSOID): v[0..2] its radii, v[3..4] the
                                   winging axis origin (NaN: left as written)               */
    U2D_EDIT_CURVATURE,         /* u2d_urdf joint (CURVATURE): v[0] its length               */
    U2D_EDIT_KINDS
} u2d_edit_kind;

typedef struct {
    int kind;               /* u2d_edit_kind                                               */
    int target;
    double v[6];
    const char *name;       /* MARKER_ADD                                                  */
    int flag;               /* MARKER_ADD: fixed                                           */
} u2d_osim_edit;

#endif
