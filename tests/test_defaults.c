/* The defaults the documentation states are the defaults the code sets: every "default X" in the
   field comments of spx_world_def, spx_body_def and spx_shape_def (include/sepax/world.h), and every
   row of the settings table in docs/world.md, against spx_default_*_def(). */
#include "support/test.h"
#include <sepax/sepax.h>
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>

typedef enum kind { K_U32, K_F32, K_BOOL, K_VEC3, K_QUAT, K_TRANSFORM, K_ENUM } kind;

typedef struct field {
    const char* def; /* the struct's name */
    const char* name;
    size_t offset;
    kind kind;
} field;

#define W(name, k)                                               \
    {                                                            \
        "spx_world_def", #name, offsetof(spx_world_def, name), k \
    }
#define B(name, k)                                             \
    {                                                          \
        "spx_body_def", #name, offsetof(spx_body_def, name), k \
    }
#define S(name, k)                                               \
    {                                                            \
        "spx_shape_def", #name, offsetof(spx_shape_def, name), k \
    }
static const field fields[] = {
    W(gravity, K_VEC3),
    W(body_capacity, K_U32),
    W(contact_capacity, K_U32),
    W(substeps, K_U32),
    W(solve_iterations, K_U32),
    W(relax_iterations, K_U32),
    W(contact_hertz, K_F32),
    W(contact_damping_ratio, K_F32),
    W(max_stack_substeps, K_U32),
    W(max_push_speed, K_F32),
    W(restitution_threshold, K_F32),
    W(speculative_distance, K_F32),
    W(enable_sleep, K_BOOL),
    W(sleep_linear_speed, K_F32),
    W(sleep_angular_speed, K_F32),
    W(time_to_sleep, K_F32),
    W(enable_continuous, K_BOOL),
    W(continuous_static_only, K_BOOL),
    W(continuous_max_impacts, K_U32),
    W(simd, K_ENUM),
    W(hit_event_threshold, K_F32),
    B(type, K_ENUM),
    B(rotation, K_QUAT),
    B(linear_damping, K_F32),
    B(angular_damping, K_F32),
    B(gravity_scale, K_F32),
    B(friction, K_F32),
    B(restitution, K_F32),
    B(enable_sleep, K_BOOL),
    B(awake, K_BOOL),
    S(type, K_ENUM),
    S(local, K_TRANSFORM),
    S(density, K_F32),
    S(friction, K_F32),
    S(restitution, K_F32),
    S(is_sensor, K_BOOL),
    S(radius, K_F32),
    S(half_height, K_F32),
};

static const struct {
    const char* name;
    int value;
} enums[] = {
    { "SPX_SIMD_AUTO", SPX_SIMD_AUTO },         { "SPX_SIMD_BASELINE", SPX_SIMD_BASELINE },
    { "SPX_BODY_STATIC", SPX_BODY_STATIC },     { "SPX_BODY_KINEMATIC", SPX_BODY_KINEMATIC },
    { "SPX_BODY_DYNAMIC", SPX_BODY_DYNAMIC },   { "SPX_SHAPE_BOX", SPX_SHAPE_BOX },
    { "SPX_SHAPE_MESH", SPX_SHAPE_MESH },       { "SPX_SHAPE_SPHERE", SPX_SHAPE_SPHERE },
    { "SPX_SHAPE_CAPSULE", SPX_SHAPE_CAPSULE },
};

static spx_world_def world_def;
static spx_body_def body_def;
static spx_shape_def shape_def;

static const field* find(const char* def, const char* name, size_t length)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
        if ((!def || strcmp(fields[i].def, def) == 0) && strlen(fields[i].name) == length &&
            strncmp(fields[i].name, name, length) == 0)
            return &fields[i];
    return NULL;
}

static const unsigned char* value_of(const field* f)
{
    const void* base = strcmp(f->def, "spx_world_def") == 0  ? (const void*)&world_def
                       : strcmp(f->def, "spx_body_def") == 0 ? (const void*)&body_def
                                                             : (const void*)&shape_def;
    return (const unsigned char*)base + f->offset;
}

/* Does the stated default `text` (up to the end of the comment or table cell) equal the field's? */
static bool matches(const field* f, const char* text)
{
    while (*text == ' ' || *text == '`') ++text;
    const unsigned char* v = value_of(f);
    char* end = NULL;
    switch (f->kind) {
    case K_U32: {
        uint32_t x;
        memcpy(&x, v, sizeof x);
        return strtoul(text, &end, 10) == x && end != text;
    }
    case K_F32: {
        float x;
        memcpy(&x, v, sizeof x);
        return (float)strtod(text, &end) == x && end != text;
    }
    case K_BOOL: {
        bool x;
        memcpy(&x, v, sizeof x);
        return strncmp(text, x ? "true" : "false", x ? 4 : 5) == 0;
    }
    case K_VEC3: {
        float x[3];
        memcpy(x, v, sizeof x);
        if (*text++ != '(') return false;
        for (int k = 0; k < 3; ++k) {
            if ((float)strtod(text, &end) != x[k] || end == text) return false;
            text = end + (*end == ',');
        }
        return *text == ')';
    }
    case K_QUAT:
    case K_TRANSFORM: {
        spx_transform identity = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
        const void* want = f->kind == K_QUAT ? (const void*)&identity.q : (const void*)&identity;
        return strncmp(text, "identity", 8) == 0 &&
               memcmp(v, want, f->kind == K_QUAT ? sizeof(spx_quat) : sizeof(spx_transform)) == 0;
    }
    case K_ENUM: {
        int x;
        memcpy(&x, v, sizeof x);
        for (size_t i = 0; i < sizeof enums / sizeof enums[0]; ++i)
            if (strncmp(text, enums[i].name, strlen(enums[i].name)) == 0 &&
                !isalnum((unsigned char)text[strlen(enums[i].name)]) && text[strlen(enums[i].name)] != '_')
                return enums[i].value == x;
        return false;
    }
    }
    return false;
}

static char* read_all(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) free(s), s = NULL;
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

/* Each field line of `typedef struct NAME { ... } NAME;` whose comment (which may run over several
   lines) says "default X". */
static int header_defaults(const char* header, const char* def, int* checked)
{
    char open[64];
    snprintf(open, sizeof open, "typedef struct %s {", def);
    const char* p = strstr(header, open);
    TEST_ENSURE(p);
    const char* stop = strstr(p, "} ");
    TEST_ENSURE(stop);
    int wrong = 0;
    for (p = strchr(p, '\n') + 1; p < stop; p = strchr(p, '\n') + 1) {
        const char* semi = strchr(p, ';');
        const char* comment = strstr(p, "/*");
        const char* eol = strchr(p, '\n');
        if (!semi || !comment || semi > eol || comment > eol || comment < semi) continue;
        const char* name_end = semi;
        const char* name = name_end;
        while (name > p && (isalnum((unsigned char)name[-1]) || name[-1] == '_')) --name;
        const char* close = strstr(comment, "*/");
        const char* d = strstr(comment, "default ");
        if (!close || !d || d > close) continue;
        const field* f = find(def, name, (size_t)(name_end - name));
        if (!f) {
            fprintf(stderr, "%s.%.*s states a default this test does not know: add it to fields[]\n", def,
                    (int)(name_end - name), name);
            ++wrong;
            continue;
        }
        ++*checked;
        if (!matches(f, d + 8)) {
            fprintf(stderr, "world.h: %s.%s says \"%.*s\", spx_default_*_def() differs\n", def, f->name,
                    (int)(close - d), d);
            ++wrong;
        }
    }
    return wrong;
}

/* docs/world.md's settings table: | `a`, `b` | unit | default a, default b | meaning |. */
static int table_defaults(const char* doc, int* checked)
{
    const char* p = strstr(doc, "## Settings (`spx_world_def`)");
    TEST_ENSURE(p);
    int wrong = 0, rows = 0;
    for (p = strstr(p, "\n| `"); p && p[1] == '|'; p = strchr(p + 1, '\n')) {
        const char* cell[4];
        const char* q = p + 1;
        for (int c = 0; c < 4; ++c) {
            q = strchr(q, '|');
            if (!q) return wrong + 1;
            cell[c] = ++q;
        }
        ++rows;
        /* The names in the first cell and the values in the third, one for one. */
        const char* name = cell[0];
        const char* value = cell[2];
        while ((name = strchr(name, '`')) && name < cell[1]) {
            const char* end = strchr(name + 1, '`');
            const field* f = find("spx_world_def", name + 1, (size_t)(end - name - 1));
            name = end + 1;
            if (!f) continue; /* capacities and the like: checked where the header states them */
            ++*checked;
            if (!matches(f, value)) {
                fprintf(stderr, "docs/world.md: %s's default \"%.*s\" differs from spx_default_world_def()\n", f->name,
                        (int)(strchr(value, '|') - value), value);
                ++wrong;
            }
            if (f->kind != K_VEC3) { /* the next value of a cell holding two */
                const char* comma = strchr(value, ',');
                if (comma && comma < cell[3]) value = comma + 1;
            }
        }
    }
    TEST_ENSURE(rows >= 10);
    return wrong;
}

static int stated_defaults_are_the_code_s(void)
{
    world_def = spx_default_world_def();
    body_def = spx_default_body_def();
    shape_def = spx_default_shape_def();
    char* header = read_all(SPX_SOURCE_DIR "/include/sepax/world.h");
    char* doc = read_all(SPX_SOURCE_DIR "/docs/world.md");
    TEST_ENSURE(header && doc);
    int checked = 0, wrong = 0;
    wrong += header_defaults(header, "spx_world_def", &checked);
    wrong += header_defaults(header, "spx_body_def", &checked);
    wrong += header_defaults(header, "spx_shape_def", &checked);
    const int in_header = checked;
    wrong += table_defaults(doc, &checked);
    printf("defaults checked: %d in world.h, %d in docs/world.md; %d differ\n", in_header, checked - in_header, wrong);
    free(header);
    free(doc);
    TEST_ENSURE(in_header >= 25 && checked - in_header >= 12);
    TEST_ENSURE(wrong == 0);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(stated_defaults_are_the_code_s, failures);
    return failures ? 1 : 0;
}
