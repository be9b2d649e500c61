/* sepax-car: the car scene of the seeds, replayed with the query family on the public API only.
 *
 * A car-sized box drives at constant velocity through a parking lot of parked car-sized boxes
 * over one interval [0, tmax]. For every parked box we ask the static question at the start
 * (spx_overlap_obb_obb) and the swept one (spx_sweep_obb_obb): whether, when, where and along
 * which normal the car first touches it. The earliest of those is what a game would act on.
 *
 * Frame: right-handed, y up, metres; the ground is the plane y = 0. A box's local x is its
 * length, y its height, z its width. Heading and yaw turn about +y (counter-clockwise seen from
 * above), so heading 0 drives along +x and heading 90 along -z. */
#include <sepax/sepax.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI_D 3.14159265358979323846

/* A car's half extents (m): 4.4 m long, 1.5 m tall, 2.0 m wide. */
static const spx_vec3 car_half = { 2.2f, 0.75f, 1.0f };

/* Where the car starts: in the lane (z = 0), wheels on the ground. */
static const spx_vec3 car_start = { -18.0f, 0.75f, 0.0f };

/* One parked box: a car-sized box placed by yaw about +y, then pitched nose-up by `tilt`
 * about its own width axis (a car on a ramp or a jack). */
typedef struct parked {
    const char* label;
    spx_vec3 center; /* m */
    float yaw_deg;   /* about +y */
    float tilt_deg;  /* about the box's own z, applied before the yaw */
} parked;

/* The default lot, fixed so every run prints the same table. A lane runs along x at z = 0
 * between a row of perpendicular bays (north, z > 0) and a row of angled bays (south, z < 0);
 * a few cars sit where they should not. With the default drive (heading 0, 10 m/s, 3 s) the car
 * passes under the one on the lift, brushes past the askew one (0.2 m to spare), clips the one
 * skewed into the lane first and the tilted one on the jack next; the crosswise car at the lane's
 * end is only reached on a longer interval (--tmax 4). */
static const parked default_lot[] = {
    { "north bay 1", { -12.0f, 0.75f, 6.0f }, 90.0f, 0.0f },
    { "north bay 2", { -9.0f, 0.75f, 6.1f }, 84.0f, 0.0f },
    { "north bay 3", { -6.0f, 0.75f, 5.9f }, 97.0f, 0.0f },
    { "north bay 4 (askew)", { 2.0f, 0.75f, 3.3f }, 35.0f, 0.0f },
    { "south angled 1", { -11.0f, 0.75f, -6.0f }, 60.0f, 0.0f },
    { "south angled 2", { -7.5f, 0.75f, -6.0f }, 60.0f, 0.0f },
    { "south angled 3", { -4.0f, 0.75f, -6.0f }, 57.0f, 0.0f },
    { "on a lift (raised)", { -3.0f, 2.55f, 0.0f }, 0.0f, 0.0f },
    { "skewed into lane", { 6.0f, 0.75f, -2.6f }, -40.0f, 0.0f },
    { "on a jack (tilted)", { 12.0f, 2.20f, 0.2f }, 5.0f, 12.0f },
    { "lane end (crosswise)", { 24.0f, 0.75f, 0.0f }, 90.0f, 0.0f },
    { "ramp (tilted, raised)", { -1.0f, 1.40f, 5.2f }, 180.0f, 9.0f },
};
#define LOT_SIZE (sizeof default_lot / sizeof default_lot[0])

typedef struct options {
    double speed;   /* m/s along the heading */
    double heading; /* degrees about +y, 0 = +x */
    double tmax;    /* s */
    int csv;
} options;

static void usage(FILE* f, const char* prog)
{
    fprintf(f,
            "usage: %s [--speed M_PER_S] [--heading DEGREES] [--tmax SECONDS] [--csv]\n"
            "  Drives a car-sized box through the built-in parking lot and reports, for each parked\n"
            "  box, the static overlap at t = 0 and the first contact during [0, tmax].\n"
            "  --speed    car speed, m/s, finite and >= 0            (default 10)\n"
            "  --heading  direction of travel, degrees about +y (up);\n"
            "             0 drives along +x, 90 along -z              (default 0)\n"
            "  --tmax     length of the interval, s, finite and >= 0 (default 3)\n"
            "  --csv      comma-separated rows instead of the table\n"
            "  --help     this message\n"
            "Exit status: 0 done, 1 a query failed, 2 bad options.\n",
            prog);
}

/* Parses a whole argument as a finite number; a trailing unit or a typo is an error, not 0. The
 * queries take floats, so a value that would overflow to infinity there is refused here. */
static int parse_number(const char* text, double* out)
{
    char* end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !(fabs(v) <= FLT_MAX)) return 0;
    *out = v;
    return 1;
}

/* Accepts both "--name VALUE" and "--name=VALUE". Returns 1 when argv[*i] was this option. */
static int numeric_option(int argc, char** argv, int* i, const char* name, double* out, int* bad)
{
    size_t n = strlen(name);
    const char* arg = argv[*i];
    if (strncmp(arg, name, n) != 0) return 0;
    const char* value;
    if (arg[n] == '=') {
        value = arg + n + 1;
    } else if (arg[n] == '\0') {
        if (*i + 1 >= argc) {
            fprintf(stderr, "%s needs a value\n", name);
            *bad = 1;
            return 1;
        }
        value = argv[++*i];
    } else {
        return 0; /* a longer name sharing the prefix, e.g. --speedy */
    }
    if (!parse_number(value, out)) {
        fprintf(stderr, "%s: '%s' is not a finite number\n", name, value);
        *bad = 1;
    }
    return 1;
}

static int parse_options(int argc, char** argv, options* opt)
{
    int bad = 0;
    for (int i = 1; i < argc && !bad; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout, argv[0]);
            exit(0);
        } else if (strcmp(argv[i], "--csv") == 0) {
            opt->csv = 1;
        } else if (numeric_option(argc, argv, &i, "--speed", &opt->speed, &bad) ||
                   numeric_option(argc, argv, &i, "--heading", &opt->heading, &bad) ||
                   numeric_option(argc, argv, &i, "--tmax", &opt->tmax, &bad)) {
            /* value stored (or bad set) by numeric_option */
        } else {
            fprintf(stderr, "unknown option '%s'\n", argv[i]);
            bad = 1;
        }
    }
    if (!bad && opt->speed < 0.0) {
        fprintf(stderr, "--speed must be >= 0 (turn the heading by 180 to reverse)\n");
        bad = 1;
    }
    if (!bad && opt->tmax < 0.0) {
        fprintf(stderr, "--tmax must be >= 0\n");
        bad = 1;
    }
    return !bad;
}

/* Hamilton product a*b (w last): rotate by b first, then by a. */
static spx_quat quat_mul(spx_quat a, spx_quat b)
{
    spx_quat q;
    q.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    q.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    q.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    q.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return q;
}

/* Yaw about +y after a nose-up tilt about the box's own z. Angles in double, so the quaternion
 * is unit to float rounding and spx_obb_from_quat's tolerance never trips. */
static spx_quat yaw_tilt(double yaw_deg, double tilt_deg)
{
    double hy = 0.5 * yaw_deg * PI_D / 180.0, ht = 0.5 * tilt_deg * PI_D / 180.0;
    spx_quat yaw = { 0.0f, (float)sin(hy), 0.0f, (float)cos(hy) };
    spx_quat tilt = { 0.0f, 0.0f, (float)sin(ht), (float)cos(ht) };
    return quat_mul(yaw, tilt);
}

/* -0 + 0 is +0: an exact zero component prints as "0.000", not "-0.000". */
static double unsigned_zero(float v) { return (double)v + 0.0; }

static const char* state_name(spx_sweep_state s)
{
    switch (s) {
    case SPX_SWEEP_MISS:
        return "miss";
    case SPX_SWEEP_HIT:
        return "hit";
    case SPX_SWEEP_START_OVERLAP:
        return "start-overlap";
    }
    return "?";
}

/* One row of the answer, kept so the first hit can be picked after all queries ran. */
typedef struct row {
    bool overlap;
    spx_sweep_hit hit;
} row;

static void print_header(const options* opt, spx_vec3 vel)
{
    printf("sepax-car: sepax %d.%d.%d, car half extents (%.2f, %.2f, %.2f) m starting at (%.2f, %.2f, %.2f)\n",
           spx_version() / 10000, spx_version() / 100 % 100, spx_version() % 100, car_half.x, car_half.y, car_half.z,
           car_start.x, car_start.y, car_start.z);
    printf("drive: heading %.1f deg, speed %.2f m/s, velocity (%.3f, %.3f, %.3f) m/s, interval [0, %.3f] s\n\n",
           opt->heading, opt->speed, unsigned_zero(vel.x), unsigned_zero(vel.y), unsigned_zero(vel.z), opt->tmax);
    printf("%3s  %-22s %-26s %6s %5s  %-7s %-13s %7s  %-24s %s\n", "id", "parked box", "centre (m)", "yaw", "tilt",
           "overlap", "sweep", "t (s)", "normal (car -> box)", "point (m)");
}

static void print_row(size_t i, const row* r)
{
    const parked* p = &default_lot[i];
    char centre[64], t[32], normal[64], point[64];
    snprintf(centre, sizeof centre, "(%6.2f, %5.2f, %6.2f)", p->center.x, p->center.y, p->center.z);
    if (r->hit.state == SPX_SWEEP_MISS) {
        snprintf(t, sizeof t, "-");
        snprintf(normal, sizeof normal, "-");
        snprintf(point, sizeof point, "-");
    } else {
        snprintf(t, sizeof t, "%.4f", r->hit.time);
        snprintf(normal, sizeof normal, "(%6.3f, %6.3f, %6.3f)", unsigned_zero(r->hit.normal.x),
                 unsigned_zero(r->hit.normal.y), unsigned_zero(r->hit.normal.z));
        snprintf(point, sizeof point, "(%6.2f, %5.2f, %6.2f)", r->hit.point.x, r->hit.point.y, r->hit.point.z);
    }
    printf("%3zu  %-22s %-26s %6.1f %5.1f  %-7s %-13s %7s  %-24s %s\n", i, p->label, centre, p->yaw_deg, p->tilt_deg,
           r->overlap ? "yes" : "no", state_name(r->hit.state), t, normal, point);
}

static void print_csv(const row* rows, size_t first)
{
    printf("id,label,center_x,center_y,center_z,yaw_deg,tilt_deg,overlap_at_0,sweep,time,"
           "normal_x,normal_y,normal_z,point_x,point_y,point_z,depth,first\n");
    for (size_t i = 0; i < LOT_SIZE; ++i) {
        const parked* p = &default_lot[i];
        const spx_sweep_hit* h = &rows[i].hit;
        /* Labels hold commas: quote them (RFC 4180). */
        printf("%zu,\"%s\",%.6g,%.6g,%.6g,%.6g,%.6g,%d,%s,", i, p->label, p->center.x, p->center.y, p->center.z,
               p->yaw_deg, p->tilt_deg, rows[i].overlap ? 1 : 0, state_name(h->state));
        if (h->state == SPX_SWEEP_MISS) printf(",,,,,,,,"); /* time, normal, point, depth: empty */
        else
            printf("%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,", h->time, h->normal.x, h->normal.y, h->normal.z,
                   h->point.x, h->point.y, h->point.z, h->depth);
        printf("%d\n", i == first ? 1 : 0);
    }
}

int main(int argc, char** argv)
{
    options opt = { 10.0, 0.0, 3.0, 0 };
    if (!parse_options(argc, argv, &opt)) {
        usage(stderr, argv[0]);
        return 2;
    }

    /* The car faces where it drives, so its box turns with the heading. */
    double h = opt.heading * PI_D / 180.0;
    spx_vec3 vel = { (float)(opt.speed * cos(h)), 0.0f, (float)(-opt.speed * sin(h)) };
    spx_obb car;
    spx_result r = spx_obb_from_quat(car_start, car_half, yaw_tilt(opt.heading, 0.0), &car);
    if (r != SPX_OK) {
        fprintf(stderr, "sepax-car: car box: %s\n", spx_result_string(r));
        return 1;
    }

    row rows[LOT_SIZE];
    const spx_vec3 at_rest = { 0.0f, 0.0f, 0.0f };
    for (size_t i = 0; i < LOT_SIZE; ++i) {
        const parked* p = &default_lot[i];
        spx_obb box;
        r = spx_obb_from_quat(p->center, car_half, yaw_tilt(p->yaw_deg, p->tilt_deg), &box);
        if (r == SPX_OK) r = spx_overlap_obb_obb(&car, &box, &rows[i].overlap);
        if (r == SPX_OK) r = spx_sweep_obb_obb(&car, vel, &box, at_rest, (float)opt.tmax, &rows[i].hit);
        if (r != SPX_OK) {
            fprintf(stderr, "sepax-car: parked box %zu (%s): %s\n", i, p->label, spx_result_string(r));
            return 1;
        }
    }

    /* Earliest contact wins; START_OVERLAP counts as time 0. Strict < keeps the lower id on a
     * tie, so the answer does not depend on anything but the input order. */
    size_t first = LOT_SIZE;
    for (size_t i = 0; i < LOT_SIZE; ++i) {
        if (rows[i].hit.state == SPX_SWEEP_MISS) continue;
        if (first == LOT_SIZE || rows[i].hit.time < rows[first].hit.time) first = i;
    }

    if (opt.csv) {
        print_csv(rows, first);
        return 0;
    }
    print_header(&opt, vel);
    for (size_t i = 0; i < LOT_SIZE; ++i) print_row(i, &rows[i]);
    printf("\n");
    if (first == LOT_SIZE) {
        printf("first hit: none -- the car touches no parked box during [0, %.3f] s\n", opt.tmax);
    } else {
        const spx_sweep_hit* f = &rows[first].hit;
        if (f->state == SPX_SWEEP_START_OVERLAP)
            printf("first hit: box %zu (%s), already overlapping at t = 0, depth %.4f m along (%.3f, %.3f, %.3f)\n",
                   first, default_lot[first].label, f->depth, unsigned_zero(f->normal.x), unsigned_zero(f->normal.y),
                   unsigned_zero(f->normal.z));
        else
            printf("first hit: box %zu (%s) at t = %.4f s, car moved %.3f m, normal (%.3f, %.3f, %.3f), "
                   "point (%.2f, %.2f, %.2f)\n",
                   first, default_lot[first].label, f->time, f->time * opt.speed, unsigned_zero(f->normal.x),
                   unsigned_zero(f->normal.y), unsigned_zero(f->normal.z), f->point.x, f->point.y, f->point.z);
    }
    return 0;
}
