/* The public API's names follow docs/api.md: every SPX_API declaration of include/sepax/ is read and
   checked, so that a new call out of pattern fails here rather than in a user's review. */
#include "support/test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* The file's text with comments and preprocessor lines blanked (NULL when it cannot be read). */
static char* read_code(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        fclose(f);
        return NULL;
    }
    fclose(f);
    s[n] = '\0';
    bool line_start = true;
    for (char* p = s; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            char* end = strstr(p + 2, "*/");
            end = end ? end + 2 : p + strlen(p);
            while (p < end) *p++ = ' ';
        } else if ((p[0] == '/' && p[1] == '/') || (line_start && p[0] == '#')) {
            while (*p && *p != '\n') *p++ = ' ';
        } else {
            if (*p == '\n') line_start = true;
            else if (*p != ' ') line_start = false;
            ++p;
        }
    }
    return s;
}

static bool starts_with(const char* s, const char* prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static bool ends_with(const char* s, const char* suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The rules of docs/api.md a name and its return type can be checked against: NULL when it keeps
   them, else the rule it breaks. */
static const char* broken_rule(const char* returns, const char* name)
{
    if (!starts_with(name, "spx_")) return "public names start with spx_";
    if (ends_with(name, "_ex")) return "no _ex suffixes: a variant is named by what it takes";
    if (strstr(name, "_make") || strstr(name, "_new")) return "values built from parts are spx_<type>_from_<parts>";
    if (ends_with(name, "_set") || ends_with(name, "_get")) return "getters and setters name what they get or set";
    if (strcmp(returns, "spx_result") == 0) return NULL;
    /* The calls that cannot fail return their answer. */
    if (starts_with(name, "spx_default_")) return NULL;
    if (ends_with(name, "_destroy") && strcmp(returns, "void") == 0) return NULL;
    if (ends_with(name, "_is_valid") && strcmp(returns, "bool") == 0) return NULL;
    if (strstr(name, "_from_")) return NULL;
    static const char* const pure[] = { "spx_result_string", "spx_version", "spx_filter_should_collide" };
    for (size_t i = 0; i < sizeof pure / sizeof pure[0]; ++i)
        if (strcmp(name, pure[i]) == 0) return NULL;
    if (strstr(name, "_get_") || strstr(name, "_is_")) return "getters and predicates return spx_result";
    return "a call that is not a default, destroy, is_valid, from-parts builder or pure function returns "
           "spx_result";
}

/* Checks every SPX_API declaration of one header; counts them into *count. */
static int check_header(const char* path, int* count)
{
    char* code = read_code(path);
    TEST_ENSURE(code != NULL);
    int failures = 0;
    for (char* p = strstr(code, "SPX_API"); p; p = strstr(p, "SPX_API")) {
        p += strlen("SPX_API");
        char* paren = strchr(p, '(');
        TEST_ENSURE(paren != NULL);
        /* The name is the last word before the parenthesis; the return type, the words before it. */
        char* end = paren;
        while (end > p && end[-1] == ' ') --end;
        char* start = end;
        while (start > p &&
               (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') || (start[-1] >= '0' && start[-1] <= '9')))
            --start;
        char name[128], returns[128];
        snprintf(name, sizeof name, "%.*s", (int)(end - start), start);
        size_t n = 0;
        for (const char* q = p; q < start && n + 1 < sizeof returns; ++q)
            if (*q != ' ' && *q != '\n' && *q != '\t') returns[n++] = *q;
        returns[n] = '\0';
        const char* rule = broken_rule(returns, name);
        if (rule) {
            fprintf(stderr, "%s: %s %s: %s\n", path, returns, name, rule);
            ++failures;
        }
        ++*count;
        p = paren;
    }
    free(code);
    return failures;
}

static int public_names_follow_the_pattern(void)
{
    DIR* dir = opendir(SPX_SOURCE_DIR "/include/sepax");
    TEST_ENSURE(dir != NULL);
    int failures = 0, count = 0;
    for (struct dirent* e; (e = readdir(dir)) != NULL;) {
        if (!ends_with(e->d_name, ".h")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/include/sepax/%s", SPX_SOURCE_DIR, e->d_name);
        failures += check_header(path, &count);
    }
    closedir(dir);
    printf("  %d public declarations checked\n", count);
    TEST_ENSURE(count > 100); /* the headers were found and read */
    TEST_ENSURE(failures == 0);
    return 0;
}

/* The checker itself: names out of pattern are caught, names in pattern pass. */
static int the_rules_catch_names_out_of_pattern(void)
{
    TEST_ENSURE(broken_rule("spx_result", "spx_manifold_obb_triangle_ex") != NULL);
    TEST_ENSURE(broken_rule("spx_result", "spx_polygon_make") != NULL);
    TEST_ENSURE(broken_rule("spx_result", "spx_obb_soa_set") != NULL);
    TEST_ENSURE(broken_rule("spx_piece2d", "spx_piece2d_circle") != NULL);
    TEST_ENSURE(broken_rule("double", "spx_world_kinetic_energy") != NULL);
    TEST_ENSURE(broken_rule("bool", "spx_body_is_awake") != NULL);
    TEST_ENSURE(broken_rule("constspx_mesh*", "spx_mesh_instance_get_mesh") != NULL);
    TEST_ENSURE(broken_rule("spx_result", "obb_overlap") != NULL);
    TEST_ENSURE(broken_rule("spx_result", "spx_world_get_kinetic_energy") == NULL);
    TEST_ENSURE(broken_rule("spx_piece2d", "spx_piece2d_from_circle") == NULL);
    TEST_ENSURE(broken_rule("bool", "spx_body_is_valid") == NULL);
    TEST_ENSURE(broken_rule("void", "spx_mesh_destroy") == NULL);
    TEST_ENSURE(broken_rule("spx_world_def", "spx_default_world_def") == NULL);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(the_rules_catch_names_out_of_pattern, failures);
    TEST_RUN(public_names_follow_the_pattern, failures);
    return failures ? 1 : 0;
}
