/* sepax (the program): a scene as read from a JSON scene file (docs/scene-format.md), and the world
 * built from it. Public API only. Reading and building are two steps so that every error of the
 * file, with its JSON path, is found before anything runs: scene_read checks the file, scene_build
 * makes the meshes and the world and names the path of anything the library still refuses. */
#ifndef SEPAX_TOOL_SCENE_H
#define SEPAX_TOOL_SCENE_H

#include <sepax/sepax.h>

#include <stddef.h>

#define SCENE_NAME_MAX 64
#define SCENE_WHERE_MAX 96 /* a JSON path such as "bodies[3].shapes[0].mesh" */
#define SCENE_MESSAGE_MAX 1536

/// Where a mesh's triangles come from.
typedef enum scene_mesh_kind {
    SCENE_MESH_FILE = 0, /* a mesh file read through assimp (tools/meshio) */
    SCENE_MESH_GRID,     /* a flat (or gently waved) grid of squares, facing +y */
    SCENE_MESH_TORUS,    /* about the y axis, closed */
    SCENE_MESH_SPHERE,   /* latitude-longitude, closed */
    SCENE_MESH_BOX       /* a closed box of 12 triangles: a mesh stand-in for a box shape */
} scene_mesh_kind;

/// A mesh of the scene: named in "meshes", or inline in a shape (then named by its path).
typedef struct scene_mesh {
    char name[SCENE_NAME_MAX];
    char where[SCENE_WHERE_MAX];
    scene_mesh_kind kind;
    char* path;                       /* FILE: resolved against the scene file's folder; malloc'd */
    float scale;                      /* FILE: every coordinate times this */
    uint32_t cells[2];                /* GRID: squares along x and z */
    float cell_size;                  /* GRID: m */
    float amplitude, wavelength;      /* GRID: height amplitude * sin(2 pi x / wl) * sin(2 pi z / wl), m */
    float major_radius, minor_radius; /* TORUS: m */
    float radius;                     /* SPHERE: m */
    uint32_t segments[2];  /* TORUS: round the ring, round the tube; SPHERE: latitude bands, longitude sectors */
    spx_vec3 half_extents; /* BOX */
    spx_mesh* mesh;        /* built by scene_build */
    bool closed;           /* built: encloses a volume */
    float volume;          /* built, closed only: m^3 */
    float radius_bound;    /* built: largest distance of a vertex from the mesh's origin, m */
} scene_mesh;

/// A convex hull of the scene: a shape's "points", built by quickhull in scene_build.
typedef struct scene_hull {
    char where[SCENE_WHERE_MAX];
    spx_vec3* points; /* malloc'd */
    uint32_t point_count;
    spx_hull* hull; /* built by scene_build */
} scene_hull;

typedef struct scene_shape {
    char where[SCENE_WHERE_MAX];
    spx_shape_type type;
    spx_vec3 half_extents; /* BOX */
    float radius;          /* SPHERE, CAPSULE */
    float half_height;     /* CAPSULE: half its segment's length, along the shape's y axis */
    uint32_t mesh;         /* MESH: index into scene.meshes */
    uint32_t hull;         /* HULL: index into scene.hulls */
    spx_transform local;
    float density; /* kg/m^3; 0: its material's */
    int material;  /* index into scene.materials; -1: the body's */
    bool sensor;   /* spx_shape_def.is_sensor */
    spx_filter filter;
} scene_shape;

typedef struct scene_material {
    char name[SCENE_NAME_MAX];
    float friction, restitution, density;
} scene_material;

typedef struct scene_body {
    char name[SCENE_NAME_MAX];
    char where[SCENE_WHERE_MAX];
    spx_body_def def;                  /* shapes and shape_count are set by scene_build */
    uint32_t material;                 /* index into scene.materials */
    float mass;                        /* kg; 0: from the densities */
    float color[3];                    /* for pictures, 0..1; negative: chosen by type */
    uint32_t first_shape, shape_count; /* into scene.shapes */
} scene_body;

/// A joint of the scene. Its frames are given either in the bodies' frames (frame_a, frame_b as the
/// library takes them) or in the world at the bodies' starting poses (anchor, anchor_b, rotation),
/// which scene_build turns into the bodies' frames.
typedef struct scene_joint {
    char name[SCENE_NAME_MAX];
    char where[SCENE_WHERE_MAX];
    spx_joint_def def; /* all but the body ids, and the frames when world_given */
    int a, b;          /* body indices in file order; a = -1: the world */
    bool world_given;  /* frames from anchor, anchor_b and rotation below */
    spx_vec3 anchor;   /* world, m: A's anchor (and B's unless anchor_b differs) */
    spx_vec3 anchor_b; /* world, m: B's anchor (the distance joint's other end) */
    spx_quat rotation; /* world: the joint frame's axes at the start */
} scene_joint;

typedef struct scene_camera {
    bool given;
    spx_vec3 eye, target; /* m */
    float fov_deg;        /* vertical field of view */
} scene_camera;

typedef struct scene {
    char* file; /* as given (or "<default>"); malloc'd */
    char name[SCENE_NAME_MAX];
    spx_world_def world;
    float dt;       /* s a step */
    uint32_t steps; /* steps `sepax run` takes without --steps */
    bool ground_given;
    float ground_y; /* m: a dynamic body whose centre of mass ends below this has fallen through */
    scene_camera camera;
    scene_material* materials;
    uint32_t material_count, material_capacity;
    scene_mesh* meshes;
    uint32_t mesh_count, mesh_capacity;
    scene_hull* hulls;
    uint32_t hull_count, hull_capacity;
    scene_body* bodies;
    uint32_t body_count, body_capacity;
    scene_shape* shapes;
    uint32_t shape_count, shape_capacity;
    scene_joint* joints;
    uint32_t joint_count, joint_capacity;
    /* Built by scene_build: */
    spx_world* w;
    spx_body_id* ids;        /* one a body, in file order (generated bodies where their generator stands) */
    spx_joint_id* joint_ids; /* one a joint, in file order */
} scene;

/// How unknown keys are treated: an error (the default; a misspelt key would otherwise silently
/// change nothing), or a warning on stderr. Keys starting with '_' are comments and always ignored.
typedef enum scene_unknown_keys { SCENE_UNKNOWN_KEY_ERROR = 0, SCENE_UNKNOWN_KEY_WARN } scene_unknown_keys;

/// Reads and checks a scene from JSON text. `file` names it in messages and is the folder mesh
/// file paths are resolved against (NULL: "<text>", paths as given). On failure returns false,
/// frees what it made and writes one line into `message`: "FILE:LINE:COLUMN: what" for a syntax
/// error, "FILE: JSON.PATH: what" otherwise.
bool scene_read_text(const char* text, size_t length, const char* file, scene_unknown_keys unknown, scene* out,
                     char* message, size_t message_size);

/// As scene_read_text on a file's contents.
bool scene_read_file(const char* path, scene_unknown_keys unknown, scene* out, char* message, size_t message_size);

/// Makes the scene's meshes and its world (out->w, out->ids). On failure returns false with the
/// file, the JSON path and the library's reason in `message`; the scene is left unbuilt.
bool scene_build(scene* s, char* message, size_t message_size);

/// Frees the world, the meshes and the description (a zeroed or half-read scene is fine).
void scene_free(scene* s);

/// The embedded scene files (scenes/*.json compiled in): the text of `name` ("default", "falling",
/// "pyramid", ...), or NULL. scene_embedded_names lists them, NULL-terminated.
const char* scene_embedded(const char* name, size_t* out_length);
extern const char* const scene_embedded_names[];

#endif
