/* What a game asks a world: a line of sight past debris, every shape on a ray, a crate slid until it
   stops, an explosion's reach, a trigger volume. docs/queries.md shows this program; the build runs it
   and checks that the page shows it as it is. Public API only. */
#include <sepax/sepax.h>
#include <math.h>
#include <stdio.h>

#define CATEGORY_DEBRIS 2u /* the shape filters' category bits of small loose things */

static int failures;

static void expect(int ok, const char* what)
{
    printf("%-4s %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

static spx_body_id add_box(spx_world* w, spx_body_type type, spx_vec3 at, spx_vec3 half, uint64_t category, bool sensor)
{
    spx_shape_def sd = spx_default_shape_def();
    sd.half_extents = half;
    sd.filter.category_bits = category;
    sd.is_sensor = sensor;
    spx_body_def bd = spx_default_body_def();
    bd.type = type;
    bd.position = at;
    bd.shapes = &sd;
    bd.shape_count = 1;
    spx_body_id id = { 0 };
    spx_body_create(w, &bd, &id);
    return id;
}

/* Every shape a cast meets: returning 1 keeps the whole cast. */
static float count_hit(const spx_cast_result* hit, void* context)
{
    (void)hit;
    ++*(int*)context;
    return 1.0f;
}

static bool count_shape(spx_shape_id shape, void* context)
{
    (void)shape;
    ++*(int*)context;
    return true; /* false would stop the query */
}

int main(void)
{
    spx_world_def wd = spx_default_world_def();
    spx_world* world = NULL;
    if (spx_world_create(&wd, &world) != SPX_OK) return 1;

    /* A floor, a crate 2 m wide at x = 5, a piece of debris at x = 2, a trigger volume at z = -6 and a
       box dropped into it; a ramp (a mesh of two triangles) rising 2 m over x = -8 .. -4. */
    add_box(world, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(20, 0.5f, 20), SPX_DEFAULT_CATEGORY_BITS, false);
    spx_body_id crate =
        add_box(world, SPX_BODY_STATIC, spx_v3(5, 1, 0), spx_v3(1, 1, 1), SPX_DEFAULT_CATEGORY_BITS, false);
    spx_body_id debris =
        add_box(world, SPX_BODY_STATIC, spx_v3(2, 1, 0), spx_v3(0.25f, 0.25f, 0.25f), CATEGORY_DEBRIS, false);
    add_box(world, SPX_BODY_STATIC, spx_v3(0, 1, -6), spx_v3(1, 1, 1), SPX_DEFAULT_CATEGORY_BITS, true);
    add_box(world, SPX_BODY_DYNAMIC, spx_v3(0, 4, -6), spx_v3(0.25f, 0.25f, 0.25f), SPX_DEFAULT_CATEGORY_BITS, false);
    const spx_vec3 ramp_corners[4] = { { -8, 0, -2 }, { -4, 2, -2 }, { -4, 2, 2 }, { -8, 0, 2 } };
    const uint32_t ramp_triangles[6] = { 0, 2, 1, 0, 3, 2 };
    spx_mesh_def md = spx_default_mesh_def();
    md.vertices = ramp_corners, md.vertex_count = 4;
    md.indices = ramp_triangles, md.triangle_count = 2;
    spx_mesh* ramp_mesh = NULL;
    if (spx_mesh_create(&md, &ramp_mesh) != SPX_OK) return 1;
    spx_shape_def ramp_shape = spx_default_shape_def();
    ramp_shape.type = SPX_SHAPE_MESH;
    ramp_shape.mesh = ramp_mesh;
    spx_body_def rd = spx_default_body_def();
    rd.shapes = &ramp_shape, rd.shape_count = 1;
    spx_body_id ramp;
    if (spx_body_create(world, &rd, &ramp) != SPX_OK) return 1;

    /* Line of sight from an eye at (0, 1, 0) 10 m along +x: the debris first (its face x = 1.75). */
    spx_cast_result hit;
    spx_world_cast_ray_closest(world, spx_v3(0, 1, 0), spx_v3(10, 0, 0), NULL, &hit);
    expect(hit.state == SPX_SWEEP_HIT && hit.body.index == debris.index && fabsf(hit.fraction - 0.175f) < 1e-6f,
           "the ray meets the debris at 1.75 m");
    /* The same ray seeing through debris: the query's mask leaves out its category. The crate's face
       x = 4 at 4/10 of the ray, normal towards the eye, no triangle (a box). */
    spx_query_filter sight = spx_default_query_filter();
    sight.mask_bits = ~(uint64_t)CATEGORY_DEBRIS;
    spx_world_cast_ray_closest(world, spx_v3(0, 1, 0), spx_v3(10, 0, 0), &sight, &hit);
    expect(hit.state == SPX_SWEEP_HIT && hit.body.index == crate.index && fabsf(hit.fraction - 0.4f) < 1e-6f &&
               hit.normal.x == -1.0f && hit.triangle == SPX_NO_TRIANGLE,
           "through the debris the ray meets the crate at 4 m, normal (-1, 0, 0)");
    printf("     point (%.3f %.3f %.3f)\n", hit.point.x, hit.point.y, hit.point.z);
    /* Every shape on the ray, through a callback. */
    int on_ray = 0;
    spx_world_cast_ray(world, spx_v3(0, 1, 0), spx_v3(10, 0, 0), NULL, count_hit, &on_ray);
    expect(on_ray == 2, "the ray passes through two shapes: the debris and the crate");
    /* Straight down onto the ramp at x = -6, where it stands 1 m high: the triangle's number in the
       def, its normal (-1, 2, 0) / sqrt 5. */
    spx_world_cast_ray_closest(world, spx_v3(-6, 5, 0.5f), spx_v3(0, -10, 0), NULL, &hit);
    expect(hit.state == SPX_SWEEP_HIT && hit.body.index == ramp.index && fabsf(hit.fraction - 0.4f) < 1e-6f &&
               hit.triangle < 2 && fabsf(hit.normal.x + 0.4472136f) < 1e-6f && fabsf(hit.normal.y - 0.8944272f) < 1e-6f,
           "the ray down meets the ramp 1 m high, normal (-0.447, 0.894, 0)");

    /* A crate of half extents 0.5 at (0, 1, 0) pushed 10 m along +x, past the debris: its face x = 0.5
       reaches the big crate's x = 4 after 3.5 m. */
    spx_obb pushed;
    spx_obb_from_quat(spx_v3(0, 1, 0), spx_v3(0.5f, 0.5f, 0.5f), (spx_quat){ 0, 0, 0, 1 }, &pushed);
    spx_world_cast_box_closest(world, &pushed, spx_v3(10, 0, 0), &sight, &hit);
    expect(hit.state == SPX_SWEEP_HIT && hit.body.index == crate.index && fabsf(hit.fraction - 0.35f) < 1e-6f &&
               fabsf(hit.normal.x + 1.0f) < 1e-6f,
           "the pushed crate stops after 3.5 m against the big one");
    /* Started half a metre into the big crate: START_OVERLAP, and depth * normal takes it out. */
    pushed.center.x = 3.75f;
    spx_world_cast_box_closest(world, &pushed, spx_v3(1, 0, 0), &sight, &hit);
    expect(hit.state == SPX_SWEEP_START_OVERLAP && fabsf(hit.depth - 0.25f) < 1e-6f && fabsf(hit.normal.x + 1) < 1e-6f,
           "a crate started 0.25 m into the big one is pushed back 0.25 m along -x");

    /* An explosion's reach: every shape a 1 m box at (5, 0, 0) overlaps (the floor, the crate), and
       the shapes that hold a point. */
    spx_obb blast;
    spx_obb_from_quat(spx_v3(5, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), (spx_quat){ 0, 0, 0, 1 }, &blast);
    int reached = 0, holding = 0;
    spx_world_overlap_box(world, &blast, NULL, count_shape, &reached);
    spx_world_overlap_point(world, spx_v3(5, 1, 0), NULL, count_shape, &holding);
    expect(reached == 2 && holding == 1, "the blast reaches the floor and the crate; the point is in the crate");

    /* The trigger volume: the dropped box falls into it; no query sees a sensor. */
    int entered = 0;
    for (int step = 0; step < 60; ++step) {
        spx_world_step(world, 1.0f / 60.0f);
        const spx_sensor_event *begin, *end;
        uint32_t begin_count, end_count;
        spx_world_get_sensor_events(world, &begin, &begin_count, &end, &end_count);
        entered += (int)begin_count;
    }
    int in_trigger = 0;
    spx_world_overlap_point(world, spx_v3(0, 1.9f, -6), NULL, count_shape, &in_trigger);
    expect(entered == 1 && in_trigger == 0, "the box entered the trigger once; queries do not see the trigger");

    spx_world_destroy(world);
    spx_mesh_destroy(ramp_mesh);
    return failures ? 1 : 0;
}
