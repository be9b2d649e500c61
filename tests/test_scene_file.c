/* The sepax program's scene files (tools/sepax/scene_file.c, scene_build.c): each kind of bad file
   gives its error naming the file, the JSON path or the line and column, and what is wrong; the
   standard scenes' generators reproduce tests/support/scenes.c; every scene in scenes/ loads and
   runs a few steps; no truncation or mutation of a valid file crashes the reader. */
#define _POSIX_C_SOURCE 200809L
#include "support/test.h"
#include "scene.h"
#include "support/cases.h"
#include "support/scenes.h"

#include <dirent.h>
#include <stdlib.h>

static char message[SCENE_MESSAGE_MAX];

/* A small valid scene with one placeholder: BODY is replaced by the body given. */
static const char* with_body(const char* body)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "{\n"
             "  \"materials\": { \"heavy\": { \"density\": 2000 } },\n"
             "  \"meshes\": { \"sheet\": { \"type\": \"grid\", \"cells\": [2, 2] } },\n"
             "  \"bodies\": [\n"
             "    { \"type\": \"static\", \"position\": [0, -1, 0], \"shapes\": [ { \"type\": \"box\", "
             "\"half_extents\": [5, 1, 5] } ] },\n"
             "    %s\n"
             "  ]\n"
             "}\n",
             body);
    return text;
}

/* Reads `text` as bad.json and expects it refused with `expected` in the message. */
static int refused(const char* text, const char* expected)
{
    scene s;
    bool ok = scene_read_text(text, strlen(text), "dir/bad.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message);
    if (ok) ok = scene_build(&s, message, sizeof message);
    scene_free(&s);
    if (ok || !strstr(message, expected)) {
        fprintf(stderr, "expected an error containing \"%s\", got %s: \"%s\"\n", expected, ok ? "success" : "error",
                message);
        return 1;
    }
    printf("  %s\n", message);
    return 0;
}

static int accepted(const char* text)
{
    scene s;
    bool ok =
        scene_read_text(text, strlen(text), "dir/good.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message);
    scene_free(&s);
    if (!ok) fprintf(stderr, "unexpected error: %s\n", message);
    return ok ? 0 : 1;
}

static int a_valid_scene_reads(void)
{
    TEST_ENSURE(
        accepted(with_body(
            "{ \"material\": \"heavy\", \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5] } ] }")) ==
        0);
    /* keys starting with '_' are comments */
    TEST_ENSURE(accepted(with_body(
                    "{ \"_note\": 1, \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }")) == 0);
    return 0;
}

/* Spheres and capsules: their keys, and the shapes' keys they do not take. */
static int round_shapes(void)
{
    TEST_ENSURE(accepted(with_body(
                    "{ \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.3 }, "
                    "{ \"type\": \"capsule\", \"radius\": 0.2, \"half_height\": 0.5, \"position\": [1, 0, 0] } ] }")) ==
                0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"sphere\" } ] }"),
                        "bodies[1].shapes[0]: missing field 'radius'") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"capsule\", \"radius\": 0.2 } ] }"),
                        "bodies[1].shapes[0]: missing field 'half_height'") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0 } ] }"),
                        "bodies[1].shapes[0].radius: must be > 0 (found 0)") == 0);
    TEST_ENSURE(
        refused(with_body("{ \"shapes\": [ { \"type\": \"capsule\", \"radius\": 0.2, \"half_height\": -1 } ] }"),
                "bodies[1].shapes[0].half_height: must be >= 0 (found -1)") == 0);
    TEST_ENSURE(
        refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"radius\": 1 } ] }"),
                "bodies[1].shapes[0].radius: only a sphere or a capsule takes a radius") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"sphere\", \"radius\": 1, \"half_height\": 1 } ] }"),
                        "bodies[1].shapes[0].half_height: only a capsule takes a half_height") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"cone\" } ] }"),
                        "unknown shape type 'cone' (box, sphere, capsule, hull, mesh)") == 0);
    return 0;
}

/* Hulls: "points" built by quickhull into a body with the hull's mass; the keys a hull does not take,
   and clouds the library refuses, named by their path. */
static int hull_shapes(void)
{
    /* A 1 m cube's corners with a repeated and an inside point, of density 2000: 2000 kg. */
    const char* text =
        with_body("{ \"material\": \"heavy\", \"shapes\": [ { \"type\": \"hull\", \"points\": [ [-0.5, -0.5, -0.5], "
                  "[0.5, -0.5, -0.5], [-0.5, 0.5, -0.5], [0.5, 0.5, -0.5], [-0.5, -0.5, 0.5], [0.5, -0.5, 0.5], "
                  "[-0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.1, 0, 0] ] } ] }");
    scene s;
    TEST_ENSURE(
        scene_read_text(text, strlen(text), "dir/good.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
    TEST_ENSURE(s.hull_count == 1 && s.hulls[0].point_count == 10);
    TEST_ENSURE(scene_build(&s, message, sizeof message));
    float mass = 0.0f;
    TEST_ENSURE(spx_body_get_mass(s.w, s.ids[1], &mass) == SPX_OK);
    TEST_ENSURE_NEAR(mass, 2000.0f, 1e-2f);
    for (int k = 0; k < 30; ++k) TEST_ENSURE(spx_world_step(s.w, s.dt) == SPX_OK);
    spx_transform t;
    TEST_ENSURE(spx_body_get_transform(s.w, s.ids[1], &t) == SPX_OK && t.p.y > 0.3f); /* on the box ground */
    scene_free(&s);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"hull\" } ] }"),
                        "bodies[1].shapes[0]: missing field 'points'") == 0);
    TEST_ENSURE(
        refused(
            with_body("{ \"shapes\": [ { \"type\": \"hull\", \"points\": [ [0, 0, 0], [1, 0, 0], [0, 1, 0] ] } ] }"),
            "bodies[1].shapes[0].points: must be an array of 4..65536 points") == 0);
    TEST_ENSURE(
        refused(
            with_body(
                "{ \"shapes\": [ { \"type\": \"hull\", \"points\": [ [0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0] ] } ] }"),
            "bodies[1].shapes[0].points[3]: must be a point [x, y, z]") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"hull\", \"points\": [ [0, 0, 0], [1, 0, 0], [0, 1, "
                                  "0], [1, 1, 0] ] } ] }"),
                        "bodies[1].shapes[0].points: the hull cannot be made") == 0);
    TEST_ENSURE(
        refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"points\": [] } ] }"),
                "bodies[1].shapes[0].points: only a hull takes points") == 0);
    TEST_ENSURE(
        refused(with_body("{ \"shapes\": [ { \"type\": \"hull\", \"half_extents\": [1, 1, 1], \"points\": [] } ] }"),
                "bodies[1].shapes[0].half_extents: a hull takes points, not half_extents") == 0);
    return 0;
}

static int missing_field(void)
{
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"box\" } ] }"),
                        "dir/bad.json: bodies[1].shapes[0]: missing field 'half_extents'") == 0);
    TEST_ENSURE(refused(with_body("{ \"type\": \"dynamic\" }"), "dir/bad.json: bodies[1]: missing field 'shapes'") ==
                0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"half_extents\": [1, 1, 1] } ] }"),
                        "bodies[1].shapes[0]: missing field 'type'") == 0);
    TEST_ENSURE(refused("{ \"bodies\": [] }", "dir/bad.json: (top level): no bodies") == 0);
    return 0;
}

static int wrong_type(void)
{
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, \"big\", 0.5] } ] }"),
                        "dir/bad.json: bodies[1].shapes[0].half_extents[1]: must be a number (found a string)") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, 0.5] } ] }"),
                        "bodies[1].shapes[0].half_extents: must be an array of 3 numbers") == 0);
    TEST_ENSURE(
        refused(with_body("{ \"sleep\": 1, \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }"),
                "bodies[1].sleep: must be true or false (found a number)") == 0);
    TEST_ENSURE(
        refused(
            with_body("{ \"type\": \"wobbly\", \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }"),
            "bodies[1].type: unknown body type 'wobbly'") == 0);
    TEST_ENSURE(
        refused("{ \"world\": { \"substeps\": 2.5 }, \"bodies\": [] }", "world.substeps: must be a whole number") == 0);
    TEST_ENSURE(refused("[1, 2]", "dir/bad.json: (top level): the file must hold one JSON object") == 0);
    return 0;
}

static int out_of_range(void)
{
    TEST_ENSURE(
        refused(with_body("{ \"mass\": -1, \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }"),
                "dir/bad.json: bodies[1].mass: must be > 0 (found -1)") == 0);
    TEST_ENSURE(
        refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"density\": -5 } ] }"),
                "bodies[1].shapes[0].density: must be > 0 (found -5)") == 0);
    TEST_ENSURE(refused("{ \"materials\": { \"foam\": { \"density\": 0 } }, \"bodies\": [] }",
                        "dir/bad.json: materials.foam.density: must be > 0 (found 0)") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, -0.5, 1] } ] }"),
                        "bodies[1].shapes[0].half_extents[1]: must be > 0 (found -0.5)") == 0);
    TEST_ENSURE(refused("{ \"materials\": { \"m\": { \"restitution\": 1.5 } }, \"bodies\": [] }",
                        "materials.m.restitution: must be at most 1 (found 1.5)") == 0);
    TEST_ENSURE(refused(with_body("{ \"type\": \"static\", \"mass\": 3, \"shapes\": [ { \"type\": \"box\", "
                                  "\"half_extents\": [1, 1, 1] } ] }"),
                        "bodies[1].mass: only a dynamic body has a mass") == 0);
    TEST_ENSURE(
        refused(
            with_body(
                "{ \"rotation\": [0, 0, 0, 0], \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }"),
            "bodies[1].rotation: must not be the zero quaternion") == 0);
    TEST_ENSURE(refused("{ \"world\": { \"dt\": 0 }, \"bodies\": [] }", "world.dt: must be > 0 (found 0)") == 0);
    TEST_ENSURE(refused("{ \"bodies\": [], \"generators\": [ { \"generator\": \"grid\", \"half_extents\": [1, 1, 1], "
                        "\"count\": [1000, 1000, 1000] } ] }",
                        "generators[0].count: makes 1000000000 bodies") == 0);
    return 0;
}

static int missing_mesh_file(void)
{
    TEST_ENSURE(
        refused("{ \"meshes\": { \"rock\": { \"type\": \"file\", \"path\": \"no/such/rock.obj\" } },\n"
                "  \"bodies\": [ { \"shapes\": [ { \"type\": \"mesh\", \"mesh\": \"rock\" } ] } ] }",
                "dir/bad.json: meshes.rock.path: mesh file 'dir/no/such/rock.obj' cannot be read: No such file") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"mesh\", \"mesh\": \"boulder\" } ] }"),
                        "bodies[1].shapes[0].mesh: no mesh named 'boulder'") == 0);
    TEST_ENSURE(
        refused(
            with_body(
                "{ \"shapes\": [ { \"type\": \"mesh\", \"mesh\": { \"type\": \"file\", \"path\": \"gone.stl\" } } ] }"),
            "bodies[1].shapes[0].mesh.path: mesh file 'dir/gone.stl' cannot be read") == 0);
    /* an open mesh cannot carry a dynamic body's mass: refused when the world is built, with its path */
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"mesh\", \"mesh\": \"sheet\" } ] }"),
                        "dir/bad.json: bodies[1].shapes[0]: mesh 'sheet' is not closed") == 0);
    return 0;
}

static int truncated_and_malformed(void)
{
    const char* good = with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }");
    char cut[4096];
    size_t n = strlen(good);
    /* cut in the middle of line 5: the error is at the end of the text */
    const char* line5 = strstr(good, "    { \"shapes\"");
    TEST_ENSURE(line5 != NULL);
    size_t at = (size_t)(line5 - good) + 12;
    memcpy(cut, good, at);
    cut[at] = '\0';
    TEST_ENSURE(refused(cut, "dir/bad.json:6:13: JSON syntax error: the file ends too early") == 0);
    TEST_ENSURE(refused("{\n  \"bodies\": [\n    { \"type\": \"static\" \n    \"shapes\": [] }\n  ]\n}\n",
                        "dir/bad.json:4:5: JSON syntax error near '\"shapes\"") == 0);
    TEST_ENSURE(refused("{ \"bodies\": [] } trailing", "dir/bad.json:1:18: JSON syntax error near 'trailing'") == 0);
    TEST_ENSURE(refused("", "dir/bad.json:1:1: JSON syntax error: the file ends too early") == 0);
    /* the text need not end with a NUL: the message quotes only what lies within its length */
    {
        const char buffer[] = "{}xZZZZZZZZZZZZZZZZ";
        scene s;
        TEST_ENSURE(!scene_read_text(buffer, 3, "dir/bad.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
        scene_free(&s);
        TEST_ENSURE(strstr(message, "dir/bad.json:1:3: JSON syntax error near 'x'") != NULL);
        TEST_ENSURE(strchr(message, 'Z') == NULL);
    }
    /* every prefix of a valid file is refused, and none crashes (run under -DSEPAX_SANITIZE=ON too) */
    for (size_t k = 0; k + 1 < n; ++k) {
        scene s;
        TEST_ENSURE(!scene_read_text(good, k, "cut.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
        TEST_ENSURE(strncmp(message, "cut.json", 8) == 0);
        scene_free(&s);
    }
    return 0;
}

/* Bad input never crashes: 2,000 copies of a small valid scene, each with a few bytes changed (to
   JSON's own punctuation, digits, a minus sign or a letter; every other copy in its numbers only) are
   read and, when they still read, built and stepped; run under -DSEPAX_SANITIZE=ON too. Every refusal
   names the file. */
static int mutations_never_crash(void)
{
    const char* good = with_body("{ \"name\": \"b\", \"material\": \"heavy\", \"linear_velocity\": [1, 2, 3], "
                                 "\"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5] } ] }");
    static const char alphabet[] = "{}[]:,\"-0123456789.eE xtnf";
    size_t n = strlen(good);
    char text[4096];
    uint64_t state = 0x2545F4914F6CDD1Dull;
    int read = 0;
    for (int k = 0; k < 2000; ++k) {
        memcpy(text, good, n + 1);
        int changes = 1 + k % 3;
        for (int c = 0; c < changes; ++c) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            size_t at = (state >> 8) % n;
            /* every other mutant changes numbers only, so that most still parse and reach the checks */
            if (k % 2)
                while (at < n && !strchr("0123456789", text[at])) ++at;
            if (at < n)
                text[at] =
                    k % 2 ? "-0123456789.e"[(state >> 40) % 13] : alphabet[(state >> 40) % (sizeof alphabet - 1)];
        }
        scene s;
        if (scene_read_text(text, n, "mutant.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message)) {
            ++read;
            if (scene_build(&s, message, sizeof message)) spx_world_step(s.w, 1.0f / 60.0f);
            else TEST_ENSURE(strncmp(message, "mutant.json: ", 13) == 0);
        } else {
            TEST_ENSURE(strncmp(message, "mutant.json", 11) == 0);
        }
        scene_free(&s);
    }
    printf("  %d of 2000 mutants still read\n", read);
    return 0;
}

static int unknown_and_repeated_keys(void)
{
    const char* typo =
        with_body("{ \"fricton\": 0.5, \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }");
    TEST_ENSURE(refused(typo, "dir/bad.json: bodies[1].fricton: unknown key (known here: name, type, position") == 0);
    /* lenient: a warning, and the scene reads */
    scene s;
    TEST_ENSURE(
        scene_read_text(typo, strlen(typo), "lenient.json", SCENE_UNKNOWN_KEY_WARN, &s, message, sizeof message));
    scene_free(&s);
    TEST_ENSURE(refused("{ \"world\": { \"dt\": 0.01, \"dt\": 0.02 }, \"bodies\": [] }", "world.dt: key given twice") ==
                0);
    TEST_ENSURE(
        refused(with_body(
                    "{ \"material\": \"jelly\", \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1] } ] }"),
                "bodies[1].material: no material named 'jelly'") == 0);
    TEST_ENSURE(refused("{ \"bodies\": [], \"generators\": [ { \"generator\": \"spiral\" } ] }",
                        "generators[0].generator: unknown generator 'spiral' (grid, pyramid)") == 0);
    return 0;
}

/* The generators reproduce the standard scenes of tests/support/scenes.c exactly. */
/* Shapes' own materials, sensors and filters reach the world; bad ones get their errors. */
static int shape_materials_sensors_filters(void)
{
    const char* text =
        "{ \"materials\": { \"ice\": { \"friction\": 0.05 } },\n"
        "  \"bodies\": [ { \"type\": \"static\", \"shapes\": [ { \"type\": \"box\", \"half_extents\": [5, 1, 5] } ] "
        "},\n"
        "    { \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5], \"material\": \"ice\",\n"
        "                     \"filter\": { \"category\": 4, \"mask\": \"0xFFFFFFFF00000000\", \"group\": -3 } },\n"
        "                   { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"position\": [0, 2, 0], \"sensor\": "
        "true } ] } ],\n"
        "  \"generators\": [ { \"generator\": \"grid\", \"half_extents\": [0.2, 0.2, 0.2], \"count\": [1, 1, 1], "
        "\"origin\": [0, 5, 0] } ] }\n";
    scene s;
    TEST_ENSURE(
        scene_read_text(text, strlen(text), "dir/good.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
    TEST_ENSURE(scene_build(&s, message, sizeof message));
    spx_shape_id shapes[2];
    uint32_t n = 0;
    TEST_ENSURE_CODE(spx_body_get_shapes(s.w, s.ids[1], shapes, 2, &n), SPX_OK);
    TEST_ENSURE(n == 2);
    spx_filter f;
    float friction = 0, restitution = 1;
    bool sensor = true;
    TEST_ENSURE_CODE(spx_shape_get_filter(s.w, shapes[0], &f), SPX_OK);
    TEST_ENSURE(f.category_bits == 4 && f.mask_bits == 0xFFFFFFFF00000000ull && f.group_index == -3);
    TEST_ENSURE_CODE(spx_shape_get_material(s.w, shapes[0], &friction, &restitution), SPX_OK);
    TEST_ENSURE(friction == 0.05f && restitution == 0.0f);
    TEST_ENSURE_CODE(spx_shape_is_sensor(s.w, shapes[0], &sensor), SPX_OK);
    TEST_ENSURE(!sensor);
    TEST_ENSURE_CODE(spx_shape_is_sensor(s.w, shapes[1], &sensor), SPX_OK);
    TEST_ENSURE(sensor);
    TEST_ENSURE_CODE(spx_shape_get_material(s.w, shapes[1], &friction, NULL), SPX_OK);
    TEST_ENSURE(friction == 0.6f); /* the body's material */
    /* A generator's shorthand box is a shape like any other: the default filter, no sensor. */
    TEST_ENSURE_CODE(spx_body_get_shape(s.w, s.ids[2], 0, &shapes[0]), SPX_OK);
    TEST_ENSURE_CODE(spx_shape_get_filter(s.w, shapes[0], &f), SPX_OK);
    TEST_ENSURE(f.category_bits == 1 && f.mask_bits == UINT64_MAX && f.group_index == 0);
    scene_free(&s);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"filter\": { "
                                  "\"group\": 1.5 } } ] }"),
                        "bodies[1].shapes[0].filter.group: must be a whole number (found 1.5)") == 0);
    TEST_ENSURE(
        refused(
            with_body(
                "{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"filter\": { \"mask\": -1 } } ] }"),
            "bodies[1].shapes[0].filter.mask: must be a whole number 0..2^53") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"filter\": { "
                                  "\"mask\": \"0xZZ\" } } ] }"),
                        "bodies[1].shapes[0].filter.mask: '0xZZ' is not a 64-bit whole number") == 0);
    TEST_ENSURE(refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"filter\": { "
                                  "\"categroy\": 2 } } ] }"),
                        "bodies[1].shapes[0].filter.categroy: unknown key") == 0);
    TEST_ENSURE(
        refused(
            with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"material\": \"lead\" } ] }"),
            "bodies[1].shapes[0].material: no material named 'lead'") == 0);
    TEST_ENSURE(
        refused(with_body("{ \"shapes\": [ { \"type\": \"box\", \"half_extents\": [1, 1, 1], \"sensor\": 1 } ] }"),
                "bodies[1].shapes[0].sensor: must be true or false") == 0);
    return 0;
}

static int compare_layout(const char* name, const test_scene_layout* l)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.json", SPX_SCENES_DIR, name);
    scene s;
    TEST_ENSURE(scene_read_file(path, SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
    TEST_ENSURE(s.body_count == l->count + 1);
    TEST_ENSURE(s.dt == l->dt && s.steps == l->steps && s.world.enable_sleep == l->sleep);
    for (uint32_t i = 0; i < l->count; ++i) {
        const scene_body* b = &s.bodies[i + 1];
        TEST_ENSURE(memcmp(&b->def.position, &l->start[i].p, sizeof(spx_vec3)) == 0);
        /* One generator (test_scene_random_rotation) and the same seed, but scenes.c's loop inlines
           it and GCC (-O3 -fno-math-errno) then computes some sines and cosines 1-2 ulp apart from
           the call the scene reader makes, so the orientations agree to 1e-6, not bit for bit. */
        TEST_ENSURE_NEAR3(b->def.rotation, l->start[i].q.x, l->start[i].q.y, l->start[i].q.z, 1e-6);
        TEST_ENSURE_NEAR(b->def.rotation.w, l->start[i].q.w, 1e-6);
        TEST_ENSURE(b->mass == l->box_mass && b->def.friction == l->box_friction &&
                    b->def.restitution == l->restitution);
        TEST_ENSURE(memcmp(&s.shapes[b->first_shape].half_extents, &l->box_half_extents, sizeof(spx_vec3)) == 0);
    }
    TEST_ENSURE(s.bodies[0].def.type == SPX_BODY_STATIC && s.bodies[0].def.friction == l->ground_friction);
    const scene_shape* ground = &s.shapes[s.bodies[0].first_shape];
    if (l->mesh_ground) {
        /* the 100x100 grid of 1 m squares, centred: tests/support/scenes.c's grid placed at (-50, 0, -50) */
        TEST_ENSURE(ground->type == SPX_SHAPE_MESH);
        const scene_mesh* m = &s.meshes[ground->mesh];
        TEST_ENSURE(m->kind == SCENE_MESH_GRID && m->cells[0] == 100 && m->cells[1] == 100 && m->cell_size == 1.0f);
    } else {
        TEST_ENSURE(memcmp(&s.bodies[0].def.position, &l->ground_center, sizeof(spx_vec3)) == 0);
        TEST_ENSURE(memcmp(&ground->half_extents, &l->ground_half_extents, sizeof(spx_vec3)) == 0);
    }
    TEST_ENSURE(scene_build(&s, message, sizeof message));
    float mass = 0.0f;
    TEST_ENSURE(spx_body_get_mass(s.w, s.ids[1], &mass) == SPX_OK);
    TEST_ENSURE_NEAR(mass, l->box_mass, 1e-6);
    scene_free(&s);
    return 0;
}

static int standard_scenes_reproduced(void)
{
    static test_scene_layout l;
    test_scene_falling_layout(&l);
    TEST_ENSURE(compare_layout("falling", &l) == 0);
    test_scene_falling_mesh_layout(&l);
    TEST_ENSURE(compare_layout("falling-mesh", &l) == 0);
    test_scene_pyramid_layout(&l, 1.0f);
    TEST_ENSURE(compare_layout("pyramid", &l) == 0);
    test_scene_pyramid_layout(&l, 1.1f);
    TEST_ENSURE(compare_layout("pyramid-spaced", &l) == 0);
    /* and the embedded copies are the files */
    size_t length = 0;
    TEST_ENSURE(scene_embedded("falling", &length) != NULL && length > 100);
    TEST_ENSURE(scene_embedded("default", NULL) != NULL && scene_embedded("nothing", NULL) == NULL);
    return 0;
}

static int every_scene_runs(void)
{
    DIR* d = opendir(SPX_SCENES_DIR);
    TEST_ENSURE(d != NULL);
    int scenes = 0, failures = 0;
    struct dirent* e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SPX_SCENES_DIR, e->d_name);
        scene s;
        bool ok = scene_read_file(path, SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message) &&
                  scene_build(&s, message, sizeof message);
        for (int k = 0; ok && k < 3; ++k) ok = spx_world_step(s.w, s.dt) == SPX_OK;
        if (ok) {
            printf("  %s: %u bodies, 3 steps\n", e->d_name, s.body_count);
#if !defined(SPX_TEST_HAVE_MESHIO)
        } else if (strstr(message, "built without assimp")) {
            printf("  %s: skipped, it names a mesh file and this build has no assimp\n", e->d_name);
#endif
        } else {
            fprintf(stderr, "%s: %s\n", e->d_name, message), ++failures;
        }
        scene_free(&s);
        ++scenes;
    }
    closedir(d);
    TEST_ENSURE(scenes >= 5);
    TEST_ENSURE(failures == 0);
    return 0;
}

/* Two boxes (a static "wall", a dynamic "box") and the joints given (JOINTS: the array's items). */
static const char* with_joints(const char* joints)
{
    static char text[8192];
    snprintf(text, sizeof text,
             "{ \"bodies\": [\n"
             "    { \"name\": \"wall\", \"type\": \"static\", \"shapes\": [ { \"type\": \"box\", "
             "\"half_extents\": [1, 1, 1] } ] },\n"
             "    { \"name\": \"box\", \"position\": [2, 0, 0], \"shapes\": [ { \"type\": \"box\", "
             "\"half_extents\": [0.5, 0.5, 0.5] } ] },\n"
             "    { \"name\": \"box2\", \"position\": [3, 0, 0], \"shapes\": [ { \"type\": \"box\", "
             "\"half_extents\": [0.5, 0.5, 0.5] } ] }\n"
             "  ],\n"
             "  \"joints\": [ %s ] }\n",
             joints);
    return text;
}

/* Every kind of joint reads with its fields, is built into the world with them, and steps. */
/* The default scene's bullets give the same bits when the broad phase's tree was shaped otherwise before
   the first step, by boxes added far from everything and destroyed again (the scene's bodies keep their
   numbers): the continuous stage's search must not hang on the order a tree hands candidates in. */
static int answers_do_not_depend_on_the_tree(void)
{
    uint64_t hashes[2];
    for (int shaped = 0; shaped < 2; ++shaped) {
        size_t length = 0;
        const char* text = scene_embedded("default", &length);
        TEST_ENSURE(text != NULL);
        scene s;
        TEST_ENSURE(
            scene_read_text(text, length, "default.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
        TEST_ENSURE(scene_build(&s, message, sizeof message));
        enum { EXTRAS = 64 };
        spx_body_id extra[EXTRAS];
        for (int k = 0; shaped && k < EXTRAS; ++k)
            extra[k] = test_add_box(s.w, SPX_BODY_DYNAMIC, spx_v3(300.0f + 3.0f * (float)k, 50.0f, 0.0f),
                                    spx_v3(0.5f, 0.5f, 0.5f));
        for (int k = 0; shaped && k < EXTRAS; ++k) TEST_ENSURE_CODE(spx_body_destroy(s.w, extra[k]), SPX_OK);
        for (int k = 0; k < 90; ++k) TEST_ENSURE_CODE(spx_world_step(s.w, s.dt), SPX_OK);
        hashes[shaped] = test_scene_bodies_hash(s.w, s.ids, s.body_count);
        scene_free(&s);
    }
    TEST_ENSURE(hashes[0] == hashes[1]);
    return 0;
}

static int joints_of_every_kind(void)
{
    const char* text = with_joints(
        "{ \"type\": \"ball\", \"a\": \"wall\", \"b\": \"box\", \"anchor\": [1.5, 0, 0] },"
        "{ \"type\": \"hinge\", \"a\": 1, \"b\": \"box2\", \"anchor\": [2.5, 0, 0], \"axis\": [0, 0, 1],"
        "  \"limit\": { \"lower\": -0.5, \"upper\": 0.5 }, \"motor\": { \"speed\": 1, \"max_force\": 10 },"
        "  \"spring\": { \"hertz\": 2, \"damping_ratio\": 0.5 }, \"break_torque\": 500 },"
        "{ \"type\": \"slider\", \"b\": \"box\", \"rotation\": { \"axis\": [0, 1, 0], \"degrees\": 90 },"
        "  \"limit\": { \"lower\": 0, \"upper\": 1 }, \"collide_connected\": true },"
        "{ \"type\": \"weld\", \"a\": \"box\", \"b\": \"box2\", \"frame_a\": { \"position\": [0.5, 0, 0] },"
        "  \"frame_b\": { \"position\": [-0.5, 0, 0] }, \"spring\": { \"hertz\": 5 }, \"break_force\": 1000 },"
        "{ \"type\": \"distance\", \"a\": \"wall\", \"b\": \"box2\", \"anchor\": [1, 0, 0], \"anchor_b\": [3, 0, 0],"
        "  \"min_length\": 1, \"spring\": { \"hertz\": 0 } },"
        "{ \"type\": \"cone_twist\", \"a\": \"wall\", \"b\": \"box\", \"swing_limit\": 0.5,"
        "  \"limit\": { \"lower\": -0.2, \"upper\": 0.2 } },"
        "{ \"type\": \"wheel\", \"a\": \"box\", \"b\": \"box2\", \"axis\": [0, 0, 1], \"steering\": 0.1,"
        "  \"spring\": { \"hertz\": 3 }, \"motor\": { \"speed\": 5, \"max_force\": 20 } },"
        "{ \"type\": \"drag\", \"name\": \"grip\", \"b\": \"box\", \"anchor\": [2.5, 0.5, 0], \"target\": [2, 2, 0],"
        "  \"max_force\": 50 }");
    scene s;
    TEST_ENSURE(scene_read_text(text, strlen(text), "j.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
    TEST_ENSURE(s.joint_count == 8);
    const scene_joint* j = s.joints;
    TEST_ENSURE(j[0].def.type == SPX_JOINT_BALL && j[0].a == 0 && j[0].b == 1 && j[0].world_given);
    TEST_ENSURE(j[1].def.type == SPX_JOINT_HINGE && j[1].a == 1 && j[1].def.limit.enable &&
                j[1].def.limit.lower == -0.5f && j[1].def.motor.enable && j[1].def.motor.max_force == 10.0f &&
                j[1].def.spring.hertz == 2.0f && j[1].def.break_torque == 500.0f);
    /* axis z: the frame's x axis turned onto z, its y axis kept */
    TEST_ENSURE(fabsf(j[1].rotation.y + 0.7071068f) < 1e-6f && fabsf(j[1].rotation.w - 0.7071068f) < 1e-6f);
    TEST_ENSURE(j[2].a == -1 && j[2].def.collide_connected && !j[3].world_given && j[3].def.frame_a.p.x == 0.5f &&
                j[3].def.frame_b.p.x == -0.5f && j[3].def.break_force == 1000.0f);
    TEST_ENSURE(j[4].def.length == 2.0f && j[4].def.limit.enable && j[4].def.min_length == 1.0f &&
                j[4].def.max_length == 2.0f && j[4].def.spring.enable);
    TEST_ENSURE(j[5].def.swing_limit == 0.5f && j[6].def.steering == 0.1f && j[6].def.spring.hertz == 3.0f &&
                j[6].def.spring.damping_ratio > 0.0f);
    TEST_ENSURE(j[7].def.target.y == 2.0f && j[7].def.max_force == 50.0f && strcmp(j[7].name, "grip") == 0);
    TEST_ENSURE(scene_build(&s, message, sizeof message));
    for (uint32_t i = 0; i < s.joint_count; ++i) TEST_ENSURE(spx_joint_is_valid(s.w, s.joint_ids[i]));
    /* The world frames became the bodies' frames: the ball's anchor 0.5 m to the box's -x. */
    spx_joint_type type;
    spx_body_id a, b;
    TEST_ENSURE_CODE(spx_joint_get_bodies(s.w, s.joint_ids[0], &type, &a, &b), SPX_OK);
    TEST_ENSURE(type == SPX_JOINT_BALL && a.index == s.ids[0].index && b.index == s.ids[1].index);
    for (int k = 0; k < 10; ++k) TEST_ENSURE_CODE(spx_world_step(s.w, s.dt), SPX_OK);
    scene_free(&s);
    return 0;
}

/* A ball joint to the world given by a world anchor on a turned, spinning body: the frame made from
   the starting pose puts the anchor where the file says, and the body turns about it. */
static int joint_world_anchor_on_a_turned_body(void)
{
    const char* text =
        "{ \"world\": { \"gravity\": [0, 0, 0] }, \"bodies\": [ { \"name\": \"b\", \"position\": [1, 2, 3],"
        "  \"rotation\": { \"axis\": [1, 1, 0], \"degrees\": 70 }, \"angular_velocity\": [0, 3, 1],"
        "  \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, 0.2, 0.3] } ] } ],"
        "  \"joints\": [ { \"type\": \"ball\", \"b\": \"b\", \"anchor\": [1.4, 2.1, 3.2] } ] }";
    scene s;
    TEST_ENSURE(scene_read_text(text, strlen(text), "t.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
    TEST_ENSURE(scene_build(&s, message, sizeof message));
    float worst = 0.0f, turned = 0.0f;
    spx_quat q0 = { 0, 0, 0, 1 };
    for (int k = 0; k <= 60; ++k) {
        spx_transform t;
        spx_joint_type type;
        spx_body_id a, b;
        TEST_ENSURE_CODE(spx_joint_get_bodies(s.w, s.joint_ids[0], &type, &a, &b), SPX_OK);
        TEST_ENSURE_CODE(spx_body_get_transform(s.w, b, &t), SPX_OK);
        if (k == 0) q0 = t.q;
        /* The body's point that started at the anchor, followed through the body's motion. */
        spx_quat c = { -q0.x, -q0.y, -q0.z, q0.w };
        spx_vec3 local = test_case_turn(c, spx_v3(1.4f - 1.0f, 2.1f - 2.0f, 3.2f - 3.0f));
        spx_vec3 w = test_case_turn(t.q, local);
        w = spx_v3(w.x + t.p.x, w.y + t.p.y, w.z + t.p.z);
        float d = sqrtf((w.x - 1.4f) * (w.x - 1.4f) + (w.y - 2.1f) * (w.y - 2.1f) + (w.z - 3.2f) * (w.z - 3.2f));
        if (d > worst) worst = d;
        float dq = fabsf(t.q.x * q0.x + t.q.y * q0.y + t.q.z * q0.z + t.q.w * q0.w);
        if (1.0f - dq > turned) turned = 1.0f - dq;
        if (k < 60) TEST_ENSURE_CODE(spx_world_step(s.w, s.dt), SPX_OK);
    }
    printf("  anchor held within %.2e m while the body turned (1 - |q.q0| up to %.3f)\n", (double)worst,
           (double)turned);
    TEST_ENSURE(turned > 0.05f);
    TEST_ENSURE(worst < 1e-3f);
    scene_free(&s);
    return 0;
}

/* Each bad joint gets its error with the joint's path. */
static int bad_joints(void)
{
    TEST_ENSURE(refused(with_joints("{ \"type\": \"spring\", \"b\": \"box\" }"),
                        "joints[0].type: unknown joint type 'spring'") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"ball\" }"), "joints[0]: missing field 'b'") == 0);
    TEST_ENSURE(
        refused(with_joints("{ \"type\": \"ball\", \"b\": \"crate\" }"), "joints[0].b: no body named 'crate'") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"ball\", \"b\": 7 }"), "joints[0].b: must be a body's index 0..2") ==
                0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"ball\", \"a\": \"box\", \"b\": \"box\" }"),
                        "joints[0].b: a joint joins two different bodies") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"ball\", \"b\": \"wall\" }"), "joints[0]: neither body is dynamic") ==
                0);
    TEST_ENSURE(
        refused(with_joints("{ \"type\": \"ball\", \"b\": \"box\", \"limit\": { \"lower\": 0, \"upper\": 1 } }"),
                "joints[0].limit: unknown key") == 0);
    TEST_ENSURE(
        refused(with_joints("{ \"type\": \"hinge\", \"b\": \"box\", \"limit\": { \"lower\": 1, \"upper\": 0 } }"),
                "joints[0].limit: lower (1) must not be above upper (0)") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"hinge\", \"b\": \"box\", \"motor\": { \"speed\": 1 } }"),
                        "joints[0].motor: missing field 'max_force'") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"hinge\", \"b\": \"box\", \"motor\": { \"speed\": 1, "
                                    "\"max_force\": -2 } }"),
                        "joints[0].motor.max_force: must be >= 0") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"hinge\", \"b\": \"box\", \"spring\": { \"hertz\": -1 } }"),
                        "joints[0].spring.hertz: must be >= 0") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"hinge\", \"b\": \"box\", \"axis\": [0, 0, 0] }"),
                        "joints[0].axis: must not be the zero vector") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"hinge\", \"b\": \"box\", \"axis\": [0, 0, 1], "
                                    "\"rotation\": [0, 0, 0, 1] }"),
                        "joints[0].axis: give the joint's axis or its rotation, not both") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"weld\", \"b\": \"box\", \"anchor\": [0, 0, 0], "
                                    "\"frame_b\": { \"position\": [0, 0, 0] } }"),
                        "joints[0]: give the frames either in the bodies") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"distance\", \"b\": \"box\", \"length\": 0 }"),
                        "joints[0].length: must be > 0") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"distance\", \"b\": \"box\", \"length\": 2, \"min_length\": 3 }"),
                        "joints[0].min_length: must not be above max_length") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"cone_twist\", \"b\": \"box\", \"swing_limit\": 4 }"),
                        "joints[0].swing_limit: must be at most") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"drag\", \"a\": \"wall\", \"b\": \"box\" }"),
                        "joints[0].a: a drag joint pulls b to a world target") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"drag\", \"b\": \"box\", \"max_force\": 0 }"),
                        "joints[0].max_force: must be > 0") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"ball\", \"b\": \"box\", \"break_force\": -1 }"),
                        "joints[0].break_force: must be >= 0") == 0);
    TEST_ENSURE(
        refused(with_joints("{ \"type\": \"ball\", \"b\": \"box\", \"frame_b\": { \"rotation\": [0, 0, 0, 0] } }"),
                "joints[0].frame_b.rotation: must not be the zero quaternion") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"ball\", \"b\": \"box\", \"anchor\": [1e300, 0, 0] }"),
                        "joints[0].anchor[0]: must be at most") == 0);
    TEST_ENSURE(refused(with_joints("{ \"type\": \"ball\", \"b\": \"box\" }, 3"), "joints[1]: must be an object") == 0);
    TEST_ENSURE(refused("{ \"joints\": [ { \"type\": \"ball\", \"b\": 0 } ] }",
                        "joints[0].b: names a body, but the scene has none") == 0);
    /* Two bodies of one name: a joint naming them is ambiguous. */
    TEST_ENSURE(refused("{ \"bodies\": [ { \"name\": \"x\", \"shapes\": [ { \"type\": \"box\", \"half_extents\": "
                        "[1, 1, 1] } ] }, { \"name\": \"x\", \"shapes\": [ { \"type\": \"box\", \"half_extents\": "
                        "[1, 1, 1] } ] } ], \"joints\": [ { \"type\": \"ball\", \"b\": \"x\" } ] }",
                        "joints[0].b: 'x' names more than one body") == 0);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(a_valid_scene_reads, failures);
    TEST_RUN(missing_field, failures);
    TEST_RUN(round_shapes, failures);
    TEST_RUN(hull_shapes, failures);
    TEST_RUN(wrong_type, failures);
    TEST_RUN(out_of_range, failures);
    TEST_RUN(missing_mesh_file, failures);
    TEST_RUN(truncated_and_malformed, failures);
    TEST_RUN(mutations_never_crash, failures);
    TEST_RUN(unknown_and_repeated_keys, failures);
    TEST_RUN(shape_materials_sensors_filters, failures);
    TEST_RUN(standard_scenes_reproduced, failures);
    TEST_RUN(every_scene_runs, failures);
    TEST_RUN(answers_do_not_depend_on_the_tree, failures);
    TEST_RUN(joints_of_every_kind, failures);
    TEST_RUN(joint_world_anchor_on_a_turned_body, failures);
    TEST_RUN(bad_joints, failures);
    return failures ? 1 : 0;
}
