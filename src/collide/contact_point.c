/* Contact point finder: the features extreme on the normal, met in the plane across it. */
#include "contact_point.h"
#include "math/dvec2.h"
#include <stdbool.h>

/* Features overlap this fraction of their size beyond their edges: faces meeting along a line overlap
 * along all of it. */
#define SPX_CONTACT_SLACK 1e-6

/* Twice the area over the squared diameter below which an overlap polygon is a segment. */
#define SPX_CONTACT_FLAT_AREA 8e-6

/* Any unit vector perpendicular to unit n. */
static void plane_basis(spx_dvec3 n, spx_dvec3* u, spx_dvec3* v)
{
    spx_dvec3 t = fabs(n.x) < 0.57735 ? spx_d3(1, 0, 0) : (fabs(n.y) < 0.57735 ? spx_d3(0, 1, 0) : spx_d3(0, 0, 1));
    *u = spx_d3_cross(n, t);
    *u = spx_d3_scale(*u, 1.0 / sqrt(spx_d3_len2(*u)));
    *v = spx_d3_cross(n, *u);
}

/* Clips convex `poly` to the inner side of edge (e0, e1), orientation `orient` (+1 ccw), moved out by
 * `slack` (a length). */
static int clip_half_plane(const spx_dvec2* poly, int count, spx_dvec2 e0, spx_dvec2 e1, double orient, double slack,
                           spx_dvec2* out)
{
    int n = 0;
    spx_dvec2 edge = spx_d2_sub(e1, e0);
    double grow = slack * sqrt(edge.x * edge.x + edge.y * edge.y);
    for (int i = 0; i < count; ++i) {
        spx_dvec2 p = poly[i], q = poly[(i + 1) % count];
        double sp = orient * spx_d2_cross(edge, spx_d2_sub(p, e0)) + grow,
               sq = orient * spx_d2_cross(edge, spx_d2_sub(q, e0)) + grow;
        if (sp >= 0.0) out[n++] = p;
        if ((sp >= 0.0) != (sq >= 0.0) && count > 1) {
            double s = sp / (sp - sq);
            spx_dvec2 r = { p.x + (q.x - p.x) * s, p.y + (q.y - p.y) * s };
            out[n++] = r;
        }
    }
    return n;
}

/* Closest points of 2D segments p0p1 and q0q1, as their midpoint. */
static spx_dvec2 segment_segment_mid(spx_dvec2 p0, spx_dvec2 p1, spx_dvec2 q0, spx_dvec2 q1)
{
    spx_dvec2 d1 = spx_d2_sub(p1, p0), d2 = spx_d2_sub(q1, q0), r = spx_d2_sub(p0, q0);
    double a = d1.x * d1.x + d1.y * d1.y, e = d2.x * d2.x + d2.y * d2.y;
    double f = d2.x * r.x + d2.y * r.y, c = d1.x * r.x + d1.y * r.y, b = d1.x * d2.x + d1.y * d2.y;
    double denom = a * e - b * b;
    double s, t;
    if (denom > 1e-12 * a * e) {
        s = (b * f - c * e) / denom;
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
    } else {
        /* Parallel: the middle of the overlap along the common direction. */
        double t0 = a > 0 ? -c / a : 0, t1 = a > 0 ? (b - c) / a : 0; /* q0, q1 in p's parameter */
        double lo = t0 < t1 ? t0 : t1, hi = t0 < t1 ? t1 : t0;
        lo = lo < 0 ? 0 : lo;
        hi = hi > 1 ? 1 : hi;
        s = lo <= hi ? 0.5 * (lo + hi) : (hi < 0 ? 0 : 1);
    }
    t = e > 0 ? (b * s + f) / e : 0;
    if (t < 0 || t > 1) {
        t = t < 0 ? 0 : 1;
        s = a > 0 ? (b * t - c) / a : 0;
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
    }
    spx_dvec2 pa = { p0.x + d1.x * s, p0.y + d1.y * s }, pb = { q0.x + d2.x * t, q0.y + d2.y * t };
    spx_dvec2 m = { 0.5 * (pa.x + pb.x), 0.5 * (pa.y + pb.y) };
    return m;
}

/* Area centroid; with no area, the middle of the farthest corners. Not the vertex mean: clipping's
 * repeated corners would make it order-dependent. */
static spx_dvec2 centroid(const spx_dvec2* p, int n)
{
    spx_dvec2 c = { 0, 0 };
    for (int i = 0; i < n; ++i) {
        c.x += p[i].x;
        c.y += p[i].y;
    }
    c.x /= n;
    c.y /= n;
    if (n < 3) return c;
    double area = 0, cx = 0, cy = 0, far2 = 0;
    int i0 = 0, i1 = 0;
    for (int i = 0; i < n; ++i) {
        spx_dvec2 a = spx_d2_sub(p[i], c), b = spx_d2_sub(p[(i + 1) % n], c); /* about the mean, for precision */
        double w = spx_d2_cross(a, b);
        area += w;
        cx += (a.x + b.x) * w;
        cy += (a.y + b.y) * w;
        for (int j = i + 1; j < n; ++j) {
            spx_dvec2 d = spx_d2_sub(p[j], p[i]);
            double d2 = d.x * d.x + d.y * d.y;
            if (d2 > far2) {
                far2 = d2;
                i0 = i;
                i1 = j;
            }
        }
    }
    if (fabs(area) <= SPX_CONTACT_FLAT_AREA * far2) {
        spx_dvec2 m = { 0.5 * (p[i0].x + p[i1].x), 0.5 * (p[i0].y + p[i1].y) };
        return m;
    }
    c.x += cx / (3.0 * area);
    c.y += cy / (3.0 * area);
    return c;
}

/* Centroid of what is left of `s` (segment or polygon) clipped by convex `poly` grown by
 * SPX_CONTACT_SLACK of the size (a rounding-wide sliver gets a defined extent); false: nothing left. */
static bool clip_centroid(const spx_dvec2* s, int ns, const spx_dvec2* poly, int np, spx_dvec2* out)
{
    double size2 = 0;
    for (int i = 0; i < ns; ++i)
        for (int j = 0; j < np; ++j) {
            spx_dvec2 d = spx_d2_sub(s[i], poly[j]);
            size2 = fmax(size2, d.x * d.x + d.y * d.y);
        }
    const double slack = SPX_CONTACT_SLACK * sqrt(size2);
    spx_dvec2 buf[2][16];
    int n = ns;
    for (int i = 0; i < ns; ++i) buf[0][i] = s[i];
    double area2 = 0;
    for (int i = 0; i < np; ++i) area2 += spx_d2_cross(poly[i], poly[(i + 1) % np]);
    double orient = area2 >= 0 ? 1.0 : -1.0;
    int cur = 0;
    for (int i = 0; i < np && n > 0; ++i) {
        if (n == 2) {
            spx_dvec2 e0 = poly[i], e1 = poly[(i + 1) % np], edge = spx_d2_sub(e1, e0);
            spx_dvec2 p = buf[cur][0], q = buf[cur][1];
            double grow = slack * sqrt(edge.x * edge.x + edge.y * edge.y);
            double sp = orient * spx_d2_cross(edge, spx_d2_sub(p, e0)) + grow,
                   sq = orient * spx_d2_cross(edge, spx_d2_sub(q, e0)) + grow;
            if (sp < 0 && sq < 0) {
                n = 0;
                break;
            }
            if (sp < 0) {
                double t = sp / (sp - sq);
                p.x += (q.x - p.x) * t;
                p.y += (q.y - p.y) * t;
            } else if (sq < 0) {
                double t = sq / (sq - sp);
                q.x += (p.x - q.x) * t;
                q.y += (p.y - q.y) * t;
            }
            buf[cur][0] = p;
            buf[cur][1] = q;
            continue;
        }
        n = clip_half_plane(buf[cur], n, poly[i], poly[(i + 1) % np], orient, slack, buf[1 - cur]);
        cur = 1 - cur;
    }
    if (n == 0) return false;
    *out = centroid(buf[cur], n);
    return true;
}

/* Twice the area over the perimeter: about a convex polygon's width. */
static double fatness(const spx_dvec2* p, int n)
{
    double area2 = 0, perimeter = 0;
    for (int i = 0; i < n; ++i) {
        spx_dvec2 d = spx_d2_sub(p[(i + 1) % n], p[i]);
        area2 += spx_d2_cross(p[i], p[(i + 1) % n]);
        perimeter += sqrt(d.x * d.x + d.y * d.y);
    }
    return perimeter > 0 ? fabs(area2) / perimeter : 0;
}

/* A segment is always clipped; of two polygons the wider clips (a grown clipper overreaches a sharp
 * corner, so a sliver must not). */
static bool clip_by_a(const spx_dvec2* pa, int na, const spx_dvec2* pb, int nb)
{
    if (na == 2 || nb == 2) return nb == 2;
    return fatness(pa, na) >= fatness(pb, nb);
}

spx_dvec3 spx_contact_point(const spx_feature* a, const spx_feature* b, spx_dvec3 n)
{
    /* A lone corner (moved halfway along n) or two crossing edges' closest points: no projection. */
    if (a->count == 1 || b->count == 1) {
        spx_dvec3 pa = a->p[0], pb = b->p[0];
        if (a->count == 1 && b->count == 1) return spx_d3_lerp_mid(pa, pb);
        double half_gap = 0.5 * (spx_d3_dot(pb, n) - spx_d3_dot(pa, n));
        return a->count == 1 ? spx_d3_mad(pa, n, half_gap) : spx_d3_mad(pb, n, -half_gap);
    }
    spx_dvec3 mid;
    if (a->count == 2 && b->count == 2 && spx_segments_mid_3d(a->p[0], a->p[1], b->p[0], b->p[1], &mid)) return mid;

    spx_dvec3 u, v;
    plane_basis(n, &u, &v);
    double ha = 0, hb = 0;
    spx_dvec2 pa[4], pb[4];
    for (int i = 0; i < a->count; ++i) {
        ha += spx_d3_dot(a->p[i], n);
        pa[i].x = spx_d3_dot(a->p[i], u);
        pa[i].y = spx_d3_dot(a->p[i], v);
    }
    for (int i = 0; i < b->count; ++i) {
        hb += spx_d3_dot(b->p[i], n);
        pb[i].x = spx_d3_dot(b->p[i], u);
        pb[i].y = spx_d3_dot(b->p[i], v);
    }
    double h = 0.5 * (ha / a->count + hb / b->count);

    spx_dvec2 q;
    if (a->count == 1 && b->count == 1) {
        q.x = 0.5 * (pa[0].x + pb[0].x);
        q.y = 0.5 * (pa[0].y + pb[0].y);
    } else if (a->count == 1) {
        q = pa[0];
    } else if (b->count == 1) {
        q = pb[0];
    } else if (a->count == 2 && b->count == 2) {
        q = segment_segment_mid(pa[0], pa[1], pb[0], pb[1]);
    } else if (clip_by_a(pa, a->count, pb, b->count) ? !clip_centroid(pb, b->count, pa, a->count, &q)
                                                     : !clip_centroid(pa, a->count, pb, b->count, &q)) {
        /* Clipping lost everything to rounding: the middle of the two features. */
        spx_dvec2 ca = centroid(pa, a->count), cb = centroid(pb, b->count);
        q.x = 0.5 * (ca.x + cb.x);
        q.y = 0.5 * (ca.y + cb.y);
    }
    return spx_d3_add(spx_d3_add(spx_d3_scale(u, q.x), spx_d3_scale(v, q.y)), spx_d3_scale(n, h));
}
