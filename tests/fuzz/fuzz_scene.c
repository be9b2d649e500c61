/* The sepax program's scene reader on any text: it reads or refuses with a message naming the file,
 * never reads past the text (which need not end with a NUL), and a scene it reads builds or is
 * refused the same way; a small one built takes a step. */
#include "fuzz.h"
#include "scene.h"

int fuzz_scene(const uint8_t* data, size_t size)
{
    /* An exact-size copy: a read past the end shows under AddressSanitizer. */
    char* text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    scene s;
    char message[512];
    if (scene_read_text(text, size, "fuzz.json", SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message)) {
        /* Generators and meshes can ask for millions of bodies or triangles, which the reader allows
           on purpose: building is checked on small scenes only (a fuzz input must run in milliseconds). */
        uint64_t triangles = 0;
        bool file = false; /* any file the input names: never read */
        for (uint32_t i = 0; i < s.mesh_count; ++i) {
            const scene_mesh* m = &s.meshes[i];
            file |= m->kind == SCENE_MESH_FILE;
            triangles += m->kind == SCENE_MESH_GRID ? 2ull * m->cells[0] * m->cells[1]
                                                    : 2ull * m->segments[0] * m->segments[1] + 12;
        }
        if (s.body_count <= 64 && triangles <= 20000 && !file) {
            if (scene_build(&s, message, sizeof message)) FUZZ_CHECK(spx_world_step(s.w, 1.0f / 60.0f) == SPX_OK);
            else FUZZ_CHECK(strncmp(message, "fuzz.json: ", 11) == 0);
        }
    } else {
        FUZZ_CHECK(strncmp(message, "fuzz.json", 9) == 0);
    }
    scene_free(&s);
    free(text);
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_scene)
