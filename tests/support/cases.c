/* Deterministic random swept problems: see cases.h. */
#include "cases.h"

#include <math.h>
#include <string.h>

static const double pi = 3.14159265358979323846;

uint64_t test_case_rng_next(test_case_rng* rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double test_case_uniform(test_case_rng* rng, double lo, double hi)
{
    /* 53 random bits: uniform on [0, 1) with every double step. */
    double u = (double)(test_case_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

double test_case_log_uniform(test_case_rng* rng, double lo, double hi)
{
    return exp(test_case_uniform(rng, log(lo), log(hi)));
}

void test_case_unit_vector(test_case_rng* rng, double out[3])
{
    double z = test_case_uniform(rng, -1.0, 1.0), phi = test_case_uniform(rng, 0.0, 2.0 * pi);
    double r = sqrt(fmax(0.0, 1.0 - z * z));
    out[0] = r * cos(phi);
    out[1] = r * sin(phi);
    out[2] = z;
}

spx_quat test_case_random_quat(test_case_rng* rng)
{
    double u1 = test_case_uniform(rng, 0, 1), u2 = test_case_uniform(rng, 0, 2 * pi),
           u3 = test_case_uniform(rng, 0, 2 * pi);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    spx_quat q = { (float)(a * sin(u2)), (float)(a * cos(u2)), (float)(b * sin(u3)), (float)(b * cos(u3)) };
    return q;
}

spx_vec3 test_case_random_vec3(test_case_rng* rng, double lo, double hi)
{
    const float z = (float)test_case_uniform(rng, lo, hi), y = (float)test_case_uniform(rng, lo, hi);
    return spx_v3((float)test_case_uniform(rng, lo, hi), y, z);
}

void test_case_random_shift(test_case_rng* rng, spx_vec3* out_offset, spx_vec3* out_velocity)
{
    const float oz = (float)floor(test_case_uniform(rng, -1000, 1000)),
                oy = (float)floor(test_case_uniform(rng, -1000, 1000)),
                ox = (float)floor(test_case_uniform(rng, -1000, 1000));
    *out_offset = spx_v3(ox, oy, oz);
    const float vz = (float)(floor(test_case_uniform(rng, -512, 512)) / 64.0),
                vy = (float)(floor(test_case_uniform(rng, -512, 512)) / 64.0),
                vx = (float)(floor(test_case_uniform(rng, -512, 512)) / 64.0);
    *out_velocity = spx_v3(vx, vy, vz);
}

const char* test_case_kind_name(test_case_kind kind)
{
    switch (kind) {
    case TEST_CASE_OBB_OBB:
        return "obb-obb";
    case TEST_CASE_OBB_TRIANGLE:
        return "obb-triangle";
    case TEST_CASE_TRIANGLE_TRIANGLE:
        return "triangle-triangle";
    default:
        return "?";
    }
}

int test_case_piece_is_box(test_case_kind kind, int piece)
{
    return kind == TEST_CASE_OBB_OBB || (kind == TEST_CASE_OBB_TRIANGLE && piece == 0);
}

void test_case_rotate(spx_quat q, const double in[3], double out[3])
{
    /* v' = v + 2w (u x v) + 2 u x (u x v), u the vector part: the unit-quaternion rotation. */
    double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    double u[3] = { q.x / n, q.y / n, q.z / n }, w = q.w / n;
    double t[3] = { 2 * (u[1] * in[2] - u[2] * in[1]), 2 * (u[2] * in[0] - u[0] * in[2]),
                    2 * (u[0] * in[1] - u[1] * in[0]) };
    double r[3] = { in[0] + w * t[0] + (u[1] * t[2] - u[2] * t[1]), in[1] + w * t[1] + (u[2] * t[0] - u[0] * t[2]),
                    in[2] + w * t[2] + (u[0] * t[1] - u[1] * t[0]) };
    memcpy(out, r, sizeof r);
}

static spx_quat quat_mul(spx_quat a, spx_quat b)
{
    double ax = a.x, ay = a.y, az = a.z, aw = a.w, bx = b.x, by = b.y, bz = b.z, bw = b.w;
    double x = aw * bx + ax * bw + ay * bz - az * by;
    double y = aw * by - ax * bz + ay * bw + az * bx;
    double z = aw * bz + ax * by - ay * bx + az * bw;
    double w = aw * bw - ax * bx - ay * by - az * bz;
    double n = sqrt(x * x + y * y + z * z + w * w);
    spx_quat r = { (float)(x / n), (float)(y / n), (float)(z / n), (float)(w / n) };
    return r;
}

static spx_vec3 to_spx(const double v[3])
{
    spx_vec3 r = { (float)v[0], (float)v[1], (float)v[2] };
    return r;
}

/* A box with aspect ratio up to 100:1: half the boxes are chunky, half stretched or flattened. */
static void make_box(test_case_rng* rng, double scale, spx_quat* q, spx_obb* box, double* radius)
{
    double base = scale * test_case_uniform(rng, 0.3, 1.0), spread = test_case_uniform(rng, 0, 1) < 0.5 ? 0.5 : 1.0;
    double h[3];
    for (int i = 0; i < 3; ++i) h[i] = base * pow(100.0, -spread * test_case_uniform(rng, 0, 1));
    *q = test_case_random_quat(rng);
    spx_vec3 he = to_spx(h);
    spx_obb_from_quat(spx_v3(0, 0, 0), he, *q, box);
    *radius = sqrt((double)he.x * he.x + (double)he.y * he.y + (double)he.z * he.z);
}

/* A triangle around the origin: mostly plain, one in five a sliver up to 100:1. */
static void make_triangle(test_case_rng* rng, double scale, double p[3][3])
{
    for (int k = 0; k < 3; ++k) {
        double d[3];
        test_case_unit_vector(rng, d);
        double r = scale * test_case_uniform(rng, 0.3, 1.0);
        for (int i = 0; i < 3; ++i) p[k][i] = r * d[i];
    }
    if (test_case_uniform(rng, 0, 1) < 0.2) {
        /* Corner 2 near the line of edge 0-1, off it by 1 to 10 % of the edge. */
        double u = test_case_uniform(rng, -0.2, 1.2), off = test_case_log_uniform(rng, 0.01, 0.1), d[3];
        test_case_unit_vector(rng, d);
        double len = 0;
        for (int i = 0; i < 3; ++i) len += (p[1][i] - p[0][i]) * (p[1][i] - p[0][i]);
        len = sqrt(len);
        for (int i = 0; i < 3; ++i) p[2][i] = p[0][i] + u * (p[1][i] - p[0][i]) + off * len * d[i];
    }
    double c[3] = { 0, 0, 0 };
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) c[i] += p[k][i] / 3.0;
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) p[k][i] -= c[i];
}

static void place_piece(test_sweep_case* c, int piece, const double centre[3], double local[3][3])
{
    if (test_case_piece_is_box(c->kind, piece)) {
        c->box[piece].center = to_spx(centre);
    } else {
        for (int k = 0; k < 3; ++k) {
            double p[3] = { centre[0] + local[k][0], centre[1] + local[k][1], centre[2] + local[k][2] };
            c->tri[piece].v[k] = to_spx(p);
        }
    }
}

void test_case_make(test_case_kind kind, uint64_t seed, test_sweep_case* out)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->seed = seed;
    test_case_rng rng = { seed * 0x2545F4914F6CDD1Dull + (uint64_t)kind * 0x9E3779B97F4A7C15ull + 1 };
    test_case_rng_next(&rng);
    out->aim = (test_case_aim)(test_case_rng_next(&rng) % 3);

    double scale[2], radius[2], local[2][3][3];
    double common = test_case_log_uniform(&rng, 0.05, 20.0);
    for (int i = 0; i < 2; ++i) {
        /* Mixed sizes: each piece within a factor 10 either side of a shared scale. */
        scale[i] = common * test_case_log_uniform(&rng, 0.1, 10.0);
        if (test_case_piece_is_box(kind, i)) {
            make_box(&rng, scale[i], &out->quat[i], &out->box[i], &radius[i]);
        } else {
            make_triangle(&rng, scale[i], local[i]);
            radius[i] = 0;
            for (int k = 0; k < 3; ++k)
                radius[i] = fmax(radius[i], sqrt(local[i][k][0] * local[i][k][0] + local[i][k][1] * local[i][k][1] +
                                                 local[i][k][2] * local[i][k][2]));
        }
    }
    double ca[3], dir[3], cb[3];
    for (int i = 0; i < 3; ++i) ca[i] = test_case_uniform(&rng, -2.0, 2.0) * common;
    test_case_unit_vector(&rng, dir);
    double reach = radius[0] + radius[1];
    double target[3], rel_disp[3];
    if (out->aim == TEST_CASE_AIM_OVERLAP) {
        if (test_case_uniform(&rng, 0, 1) < 0.75) {
            /* B's centre (or centroid) at a point of A: certainly overlapping. */
            double u[3];
            for (int i = 0; i < 3; ++i) u[i] = test_case_uniform(&rng, -1, 1);
            for (int i = 0; i < 3; ++i) cb[i] = ca[i];
            if (test_case_piece_is_box(kind, 0)) {
                const float* h = &out->box[0].half_extents.x;
                for (int k = 0; k < 3; ++k) {
                    const float* col = &out->box[0].rotation.col[k].x;
                    for (int i = 0; i < 3; ++i) cb[i] += u[k] * h[k] * col[i];
                }
            } else {
                double b1 = 0.5 * (u[0] + 1), b2 = 0.5 * (u[1] + 1);
                if (b1 + b2 > 1) {
                    b1 = 1 - b1;
                    b2 = 1 - b2;
                }
                for (int i = 0; i < 3; ++i)
                    cb[i] += (1 - b1 - b2) * local[0][0][i] + b1 * local[0][1][i] + b2 * local[0][2][i];
            }
        } else {
            /* Centres closer than the sum of radii: often overlapping, never certainly. */
            double d = reach * test_case_uniform(&rng, 0.0, 0.6);
            for (int i = 0; i < 3; ++i) cb[i] = ca[i] + d * dir[i];
        }
        double m[3];
        test_case_unit_vector(&rng, m);
        double len = reach * test_case_log_uniform(&rng, 0.01, 3.0);
        for (int i = 0; i < 3; ++i) rel_disp[i] = len * m[i];
    } else {
        /* B starts outside both bounding spheres (no start overlap) and heads at a point near A:
           close to its centre for a hit, off to the side (or falling short) for a miss. */
        double d = reach * test_case_uniform(&rng, 1.02, 4.0);
        for (int i = 0; i < 3; ++i) cb[i] = ca[i] + d * dir[i];
        double off[3];
        test_case_unit_vector(&rng, off);
        double miss = out->aim == TEST_CASE_AIM_HIT ? test_case_uniform(&rng, 0.0, 0.5) * radius[0]
                                                    : test_case_uniform(&rng, 0.3, 1.5) * reach;
        for (int i = 0; i < 3; ++i) target[i] = ca[i] + miss * off[i];
        double stretch = out->aim == TEST_CASE_AIM_HIT         ? test_case_uniform(&rng, 1.0, 3.0)
                         : test_case_uniform(&rng, 0, 1) < 0.7 ? test_case_uniform(&rng, 0.5, 3.0)
                                                               : test_case_uniform(&rng, 0.1, 0.7);
        for (int i = 0; i < 3; ++i) rel_disp[i] = stretch * (target[i] - cb[i]);
    }
    place_piece(out, 0, ca, local[0]);
    place_piece(out, 1, cb, local[1]);
    double tmax = test_case_log_uniform(&rng, 0.01, 10.0);
    out->tmax = (float)tmax;
    /* Both pieces move: A gets a velocity of its own, B that plus the relative velocity. */
    double va[3], vmag = sqrt(rel_disp[0] * rel_disp[0] + rel_disp[1] * rel_disp[1] + rel_disp[2] * rel_disp[2]) / tmax;
    test_case_unit_vector(&rng, va);
    double own = vmag * test_case_uniform(&rng, 0.0, 1.5);
    double vb[3];
    for (int i = 0; i < 3; ++i) {
        va[i] *= own;
        vb[i] = va[i] + rel_disp[i] / tmax;
    }
    out->velocity[0] = to_spx(va);
    out->velocity[1] = to_spx(vb);
}

void test_case_swap(const test_sweep_case* in, test_sweep_case* out)
{
    test_sweep_case c = *in;
    c.box[0] = in->box[1];
    c.box[1] = in->box[0];
    c.quat[0] = in->quat[1];
    c.quat[1] = in->quat[0];
    c.tri[0] = in->tri[1];
    c.tri[1] = in->tri[0];
    c.velocity[0] = in->velocity[1];
    c.velocity[1] = in->velocity[0];
    *out = c;
}

static spx_vec3 move_point(spx_quat q, const double shift[3], spx_vec3 p)
{
    double in[3] = { p.x, p.y, p.z }, r[3];
    test_case_rotate(q, in, r);
    for (int i = 0; i < 3; ++i) r[i] += shift[i];
    return to_spx(r);
}

spx_vec3 test_case_turn(spx_quat q, spx_vec3 p)
{
    double in[3] = { p.x, p.y, p.z }, r[3];
    test_case_rotate(q, in, r);
    return to_spx(r);
}

void test_case_transform(const test_sweep_case* in, spx_quat q, const double shift[3], test_sweep_case* out)
{
    test_sweep_case c = *in;
    for (int i = 0; i < 2; ++i) {
        if (test_case_piece_is_box(in->kind, i)) {
            c.quat[i] = quat_mul(q, in->quat[i]);
            spx_obb_from_quat(move_point(q, shift, in->box[i].center), in->box[i].half_extents, c.quat[i], &c.box[i]);
        } else {
            for (int k = 0; k < 3; ++k) c.tri[i].v[k] = move_point(q, shift, in->tri[i].v[k]);
        }
        c.velocity[i] = test_case_turn(q, in->velocity[i]);
    }
    *out = c;
}

void test_case_reference_problem(const test_sweep_case* c, test_ref_problem* out)
{
    switch (c->kind) {
    case TEST_CASE_OBB_OBB:
        test_ref_problem_obb_obb(&c->box[0], c->velocity[0], &c->box[1], c->velocity[1], c->tmax, out);
        break;
    case TEST_CASE_OBB_TRIANGLE:
        test_ref_problem_obb_triangle(&c->box[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, out);
        break;
    default:
        test_ref_problem_triangle_triangle(&c->tri[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, out);
        break;
    }
}

static void print_vec(FILE* f, const char* name, spx_vec3 v)
{
    fprintf(f, "    %s = { %a, %a, %a }  /* %.9g %.9g %.9g */\n", name, v.x, v.y, v.z, v.x, v.y, v.z);
}

void test_case_print(FILE* f, const test_sweep_case* c)
{
    fprintf(f, "  case %s seed %llu (aimed at %s)\n", test_case_kind_name(c->kind), (unsigned long long)c->seed,
            c->aim == TEST_CASE_AIM_HIT    ? "hit"
            : c->aim == TEST_CASE_AIM_MISS ? "miss"
                                           : "overlap");
    for (int i = 0; i < 2; ++i) {
        const char* who = i == 0 ? "A" : "B";
        fprintf(f, "   %s:\n", who);
        if (test_case_piece_is_box(c->kind, i)) {
            const spx_obb* b = &c->box[i];
            print_vec(f, "center", b->center);
            print_vec(f, "half_extents", b->half_extents);
            print_vec(f, "rotation.col[0]", b->rotation.col[0]);
            print_vec(f, "rotation.col[1]", b->rotation.col[1]);
            print_vec(f, "rotation.col[2]", b->rotation.col[2]);
        } else {
            print_vec(f, "v[0]", c->tri[i].v[0]);
            print_vec(f, "v[1]", c->tri[i].v[1]);
            print_vec(f, "v[2]", c->tri[i].v[2]);
        }
        print_vec(f, "velocity", c->velocity[i]);
    }
    fprintf(f, "    tmax = %a  /* %.9g */\n", c->tmax, c->tmax);
}
