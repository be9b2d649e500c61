/* Finds random draws whose order C leaves to the compiler: two calls of a random generator in one
 * expression with no sequence point between them, as the arguments of one call
 * (`spx_v3(draw(), draw(), draw())`, which gcc evaluates right to left and clang left to right), the
 * elements of one braced initializer, or the two operands of an operator. Their random problems, and
 * every figure printed from them, would then differ between compilers.
 *
 * A generator is a function whose name has a part (between underscores) rand, random, rnd, uniform,
 * draw, next, xorshift64 or lcg, or that calls one (any function defined in the files read; a static
 * one counts in its own file, or everywhere when that file is a header).
 * Draws stay sequenced when written as separate statements or declarators, or with &&, ||, ?: or a
 * comma operator between them, or one inside the other's arguments.
 *
 * Usage: draw_order <file>...   prints each unsequenced pair; exit status 1 if there is one.
 *        draw_order --self-test  checks itself on lines that are and are not unsequenced. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct token {
    char text[64]; /* identifiers and punctuators; longer identifiers are cut (names compare by prefix) */
    int line;
    bool ident;
    int match;     /* the index of the matching bracket, or -1 */
    int group;     /* the index of the innermost open bracket enclosing this token, or -1 */
    int statement; /* tokens of one full expression share a number */
} token;

typedef struct tokens {
    token* t;
    int n, cap;
} tokens;

/* Generators found by what they call; a static one is known in its own file only, unless that file
   is a header (its static inline functions reach every file that includes it). */
typedef struct names {
    char (*name)[64];
    int* file; /* the file that defines it when static, or -1 */
    int n, cap, current;
    bool header; /* the current file is a header */
} names;

static bool push_token(tokens* ts, const char* s, size_t len, int line, bool ident)
{
    if (ts->n == ts->cap) {
        int cap = ts->cap ? 2 * ts->cap : 4096;
        token* t = realloc(ts->t, (size_t)cap * sizeof *t);
        if (!t) return false;
        ts->t = t, ts->cap = cap;
    }
    token* t = &ts->t[ts->n++];
    if (len >= sizeof t->text) len = sizeof t->text - 1;
    memcpy(t->text, s, len);
    t->text[len] = '\0';
    t->line = line, t->ident = ident, t->match = -1, t->group = -1, t->statement = 0;
    return true;
}

/* C tokens without comments, string and character literals, or preprocessor lines. */
static bool tokenize(const char* s, tokens* ts)
{
    int line = 1;
    bool line_start = true;
    while (*s) {
        if (*s == '\n') {
            ++line, ++s, line_start = true;
            continue;
        }
        if (isspace((unsigned char)*s)) {
            ++s;
            continue;
        }
        if (line_start && *s == '#') { /* a directive, with its continuation lines */
            while (*s && *s != '\n') {
                if (*s == '\\' && s[1] == '\n') ++line, ++s;
                ++s;
            }
            continue;
        }
        line_start = false;
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') ++s;
        } else if (s[0] == '/' && s[1] == '*') {
            s += 2;
            while (*s && !(s[0] == '*' && s[1] == '/')) line += *s++ == '\n';
            if (*s) s += 2;
        } else if (*s == '"' || *s == '\'') {
            const char quote = *s++;
            while (*s && *s != quote) {
                if (*s == '\\' && s[1]) line += *++s == '\n';
                line += *s++ == '\n';
            }
            if (*s) ++s;
            if (!push_token(ts, "0", 1, line, false)) return false; /* a literal is an operand */
        } else if (isalnum((unsigned char)*s) || *s == '_') {
            const char* b = s;
            while (isalnum((unsigned char)*s) || *s == '_' || *s == '.') ++s;
            if (!push_token(ts, b, (size_t)(s - b), line, !isdigit((unsigned char)*b))) return false;
        } else {
            static const char* const two[] = { "&&", "||", "->", "++", "--", "==", "!=", "<=", ">=", "<<", ">>" };
            size_t len = 1;
            for (size_t k = 0; k < sizeof two / sizeof two[0]; ++k)
                if (s[0] == two[k][0] && s[1] == two[k][1]) len = 2;
            if (!push_token(ts, s, len, line, false)) return false;
            s += len;
        }
    }
    return true;
}

static bool is(const token* t, const char* text) { return strcmp(t->text, text) == 0; }

static bool control_keyword(const token* t) { return is(t, "if") || is(t, "while") || is(t, "for") || is(t, "switch"); }

static bool keyword(const token* t)
{
    static const char* const words[] = { "if",    "while",  "for",      "switch",  "return", "sizeof",   "else",
                                         "do",    "case",   "_Alignof", "alignof", "const",  "static",   "struct",
                                         "union", "enum",   "typedef",  "extern",  "inline", "void",     "int",
                                         "float", "double", "char",     "long",    "short",  "unsigned", "signed",
                                         "bool",  "_Bool",  "goto" };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; ++k)
        if (is(t, words[k])) return true;
    return false;
}

/* ( after a name (not a keyword) or after ) or ]: a call's argument list. */
static bool call_paren(const tokens* ts, int open)
{
    if (!is(&ts->t[open], "(") || open == 0) return false;
    const token* before = &ts->t[open - 1];
    return (before->ident && !keyword(before)) || is(before, ")") || is(before, "]");
}

/* { that opens a block rather than an initializer: an initializer's { follows =, a comma, return, an
   initializer's { or the ) of a cast (a compound literal). */
static bool block_brace(const tokens* ts, int open)
{
    if (open == 0) return true;
    const token* before = &ts->t[open - 1];
    if (is(before, ")")) {
        const int paren = before->match;
        return paren > 0 && (control_keyword(&ts->t[paren - 1]) || ts->t[paren - 1].ident);
    }
    if (is(before, "{")) return block_brace(ts, open - 1);
    return !(is(before, "=") || is(before, ",") || is(before, "return"));
}

/* Brackets matched, each token's innermost group, and its full expression: a new one after each ;,
   at each block brace and at each end of a control statement's parentheses. */
static bool structure(tokens* ts)
{
    int* stack = malloc((size_t)(ts->n + 1) * sizeof *stack);
    if (!stack) return false;
    int depth = 0, statement = 1;
    for (int i = 0; i < ts->n; ++i) {
        token* t = &ts->t[i];
        t->group = depth ? stack[depth - 1] : -1;
        if (is(t, "(") || is(t, "[") || is(t, "{")) {
            stack[depth++] = i;
            if (is(t, "{") && block_brace(ts, i)) ++statement;
            if (is(t, "(") && i > 0 && control_keyword(&ts->t[i - 1])) ++statement;
        } else if ((is(t, ")") || is(t, "]") || is(t, "}")) && depth > 0) {
            const int open = stack[--depth];
            t->match = open, ts->t[open].match = i;
            t->group = depth ? stack[depth - 1] : -1;
            if (is(t, "}") && block_brace(ts, open)) ++statement;
            if (is(t, ")") && open > 0 && control_keyword(&ts->t[open - 1])) ++statement;
        } else if (is(t, ";")) {
            ++statement;
        }
        t->statement = statement;
    }
    free(stack);
    return true;
}

static bool name_part(const char* name, const char* part)
{
    const size_t n = strlen(part);
    for (const char* p = name; (p = strstr(p, part)) != NULL; ++p)
        if ((p == name || p[-1] == '_') && (p[n] == '\0' || p[n] == '_')) return true;
    return false;
}

static bool listed(const names* g, const char* name)
{
    for (int k = 0; k < g->n; ++k)
        if ((g->file[k] < 0 || g->file[k] == g->current) && strcmp(g->name[k], name) == 0) return true;
    return false;
}

static bool generator(const names* g, const char* name)
{
    static const char* const parts[] = { "rand", "random", "rnd", "uniform", "draw", "next", "xorshift64", "lcg" };
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k)
        if (name_part(name, parts[k])) return true;
    return listed(g, name);
}

/* A call of a generator at token i (its name, followed by its argument list). */
static bool draw_at(const tokens* ts, const names* g, int i)
{
    return i + 1 < ts->n && ts->t[i].ident && !keyword(&ts->t[i]) && is(&ts->t[i + 1], "(") &&
           generator(g, ts->t[i].text) && !(i > 0 && (is(&ts->t[i - 1], ".") || is(&ts->t[i - 1], "->")));
}

/* Adds every function defined in ts whose body calls a generator; true if one was added. */
static bool add_generators(const tokens* ts, names* g)
{
    bool added = false;
    for (int i = 0; i + 1 < ts->n; ++i) {
        const token* t = &ts->t[i];
        if (!t->ident || keyword(t) || t->group != -1 || !is(&ts->t[i + 1], "(")) continue;
        const int close = ts->t[i + 1].match;
        if (close < 0 || close + 1 >= ts->n || !is(&ts->t[close + 1], "{") || generator(g, t->text)) continue;
        const int end = ts->t[close + 1].match;
        for (int k = close + 2; k < end; ++k) {
            if (!draw_at(ts, g, k)) continue;
            if (g->n == g->cap) {
                const int cap = g->cap ? 2 * g->cap : 64;
                char(*name)[64] = realloc(g->name, (size_t)cap * sizeof *name);
                if (name) g->name = name;
                int* file = realloc(g->file, (size_t)cap * sizeof *file);
                if (file) g->file = file;
                if (!name || !file) return added;
                g->cap = cap;
            }
            bool file_static = false;
            for (int j = i - 1; j >= 0 && ts->t[j].group == -1 && !is(&ts->t[j], ";") && !is(&ts->t[j], "}"); --j)
                file_static |= is(&ts->t[j], "static");
            g->file[g->n] = file_static && !g->header ? g->current : -1;
            memcpy(g->name[g->n++], t->text, sizeof t->text);
            added = true;
            break;
        }
    }
    return added;
}

static int depth_of(const tokens* ts, int i)
{
    int d = 0;
    for (int k = ts->t[i].group; k >= 0; k = ts->t[k].group) ++d;
    return d;
}

/* Whether draws at a < b (same full expression) have an order the language fixes. */
static bool sequenced(const tokens* ts, int a, int b)
{
    const int a_args = a + 1;
    if (b > a_args && b < ts->t[a_args].match) return true; /* b is among a's arguments: b first */
    /* The innermost bracket group holding both (-1: the statement itself). */
    int ga = ts->t[a].group, gb = ts->t[b].group;
    int da = depth_of(ts, a), db = depth_of(ts, b);
    while (da > db) ga = ts->t[ga].group, --da;
    while (db > da) gb = ts->t[gb].group, --db;
    while (ga != gb) ga = ts->t[ga].group, gb = ts->t[gb].group;
    const int group = ga;
    const bool list = group >= 0 && (call_paren(ts, group) || (is(&ts->t[group], "{") && !block_brace(ts, group)));
    for (int k = a; k < b; ++k) {
        if (ts->t[k].group != group) continue;
        const token* t = &ts->t[k];
        if (is(t, ",")) {
            if (list) return false; /* two arguments, or two initializer elements */
            return true;            /* a comma operator or two declarators */
        }
        if (is(t, "&&") || is(t, "||") || is(t, "?") || is(t, ":")) return true;
    }
    return false;
}

static int check(const char* path, const char* text, names* g, bool quiet)
{
    tokens ts = { 0 };
    if (!tokenize(text, &ts) || !structure(&ts)) {
        fprintf(stderr, "draw_order: out of memory on %s\n", path);
        free(ts.t);
        return -1;
    }
    int found = 0, reported = 0; /* one line per full expression */
    for (int a = 0; a < ts.n; ++a) {
        if (ts.t[a].statement == reported || !draw_at(&ts, g, a)) continue;
        for (int b = a + 1; b < ts.n && ts.t[b].statement == ts.t[a].statement; ++b) {
            if (!draw_at(&ts, g, b) || sequenced(&ts, a, b)) continue;
            if (!quiet)
                printf("%s:%d: %s(...) and %s(...) draw in an order the compiler chooses\n", path, ts.t[a].line,
                       ts.t[a].text, ts.t[b].text);
            ++found, reported = ts.t[a].statement;
            break;
        }
    }
    free(ts.t);
    return found;
}

static char* read_file(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    char* text = NULL;
    size_t n = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (n + got + 1 > cap) {
            cap = 2 * (n + got + 1);
            char* grown = realloc(text, cap);
            if (!grown) break;
            text = grown;
        }
        memcpy(text + n, chunk, got), n += got;
    }
    fclose(f);
    if (text) text[n] = '\0';
    return text;
}

/* Lines the check must flag, and lines it must pass. */
static int self_test(void)
{
    static const char* const flagged[] = {
        "void f(void) { v = spx_v3(uniform(0, 1), uniform(0, 1), 0); }",
        "void f(void) { v = make((float)test_case_uniform(&r, 0, 1),\n (float)test_case_uniform(&r, 0, 1)); }",
        "void f(void) { spx_vec3 v = { rnd(), rnd(), rnd() }; }",
        "void f(void) { x = (spx_vec3){ 1, draw(), 2 * draw() }; }",
        "void f(void) { x = 2.0f * rand() - rand(); }",
        "void f(void) { if (next(&s) % 3 == next(&s) % 5) g(); }",
        "static float sign(void) { return uniform(0, 1) < 0.5 ? -1 : 1; }\n"
        "void f(void) { v = spx_v3(sign() * 2, 0, sign()); }",
    };
    static const char* const passed[] = {
        "void f(void) { const float x = uniform(0, 1), y = uniform(0, 1); v = spx_v3(x, y, 0); }",
        "void f(void) { x = uniform(0, 1); y = uniform(0, 1); }",
        "void f(void) { p[i] = p[(int)uniform(0, i)]; if (uniform(0, 1) < 0.1) p[i] = p[(int)uniform(0, i)]; }",
        "void f(void) { h = kind ? uniform(0, 1) : uniform(2, 3); ok = rnd() > 0 && rnd() > 0; }",
        "void f(void) { h = random_hull(uniform(0.2, 1.5)); x = uniform(0, 1), y = uniform(0, 1); }",
        "void f(void) { /* spx_v3(uniform(0, 1), uniform(0, 1), 0) */ puts(\"rand(), rand()\"); }",
        "void f(void) { for (int i = 0; i < 3; ++i) a[i] = uniform(0, 1), b[i] = uniform(0, 1); }",
        "void f(void) { if (x) { a = rnd(); } else { b = rnd(); } }",
    };
    int failures = 0;
    for (size_t k = 0; k < sizeof flagged / sizeof flagged[0]; ++k) {
        names g = { 0 };
        tokens ts = { 0 };
        if (tokenize(flagged[k], &ts) && structure(&ts)) add_generators(&ts, &g);
        free(ts.t);
        if (check("flagged", flagged[k], &g, true) <= 0) fprintf(stderr, "not flagged: %s\n", flagged[k]), ++failures;
        free(g.name), free(g.file);
    }
    for (size_t k = 0; k < sizeof passed / sizeof passed[0]; ++k) {
        names g = { 0 };
        if (check("passed", passed[k], &g, true) != 0) fprintf(stderr, "flagged: %s\n", passed[k]), ++failures;
        free(g.name), free(g.file);
    }
    /* A static inline reader of a header is a generator in the files that include it. */
    {
        names g = { 0 };
        tokens ts = { 0 };
        const char* header = "static inline float read_float(S* s) { return (float)next_byte(s) / 255.0f; }";
        const char* user = "void f(S* s) { v = spx_v3(read_float(s), read_float(s), 0); }";
        g.current = 1, g.header = true;
        if (tokenize(header, &ts) && structure(&ts)) add_generators(&ts, &g);
        free(ts.t);
        g.current = 2, g.header = false;
        if (check("user", user, &g, true) <= 0)
            fprintf(stderr, "not flagged: a header's reader in %s\n", user), ++failures;
        free(g.name), free(g.file);
    }
    printf("draw_order self-test: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}

int main(int argc, char** argv)
{
    if (argc == 2 && strcmp(argv[1], "--self-test") == 0) return self_test();
    if (argc < 2) {
        fprintf(stderr, "usage: draw_order <file>... | --self-test\n");
        return 2;
    }
    /* Generators first, over every file (a helper in one file may be called from another), until no
       more are found; then the check. */
    char** text = calloc((size_t)argc, sizeof *text);
    tokens* parsed = calloc((size_t)argc, sizeof *parsed);
    names g = { 0 };
    int status = 0, found = 0;
    if (!text || !parsed) return 2;
    for (int i = 1; i < argc; ++i) {
        if (!(text[i] = read_file(argv[i]))) {
            fprintf(stderr, "draw_order: cannot read %s\n", argv[i]);
            status = 2;
        } else if (!tokenize(text[i], &parsed[i]) || !structure(&parsed[i])) {
            status = 2;
        }
    }
    for (bool more = true; more && status == 0;) {
        more = false;
        for (int i = 1; i < argc; ++i) {
            const size_t len = strlen(argv[i]);
            g.current = i, g.header = len > 2 && strcmp(argv[i] + len - 2, ".h") == 0;
            more |= add_generators(&parsed[i], &g);
        }
        g.header = false;
    }
    for (int i = 1; i < argc && status == 0; ++i) {
        g.current = i;
        const int n = check(argv[i], text[i], &g, false);
        if (n < 0) status = 2;
        found += n > 0 ? n : 0;
    }
    for (int i = 1; i < argc; ++i) free(text[i]), free(parsed[i].t);
    free(text), free(parsed), free(g.name), free(g.file);
    if (status) return status;
    printf("draw_order: %d unsequenced draw(s) in %d file(s)\n", found, argc - 1);
    return found ? 1 : 0;
}
