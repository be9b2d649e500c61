// sepax_bench collide peer: ODE's box-box functions on ODE's own types. dBoxTouchesBox is the static
// yes/no test (15 axes); dBoxBox the contact generator (up to 4 points, flags = 4). ODE stores a
// rotation as 3 rows of 4 dReal (the fourth unused) and takes full side lengths, not half extents.
#include "peers/peers.h"

#include <ode/ode.h>

#include <cstring>
#include <new>
#include <vector>

#if !defined(SPX_BENCH_ODE_VERSION)
#define SPX_BENCH_ODE_VERSION "?"
#endif

#if defined(dSINGLE)
#define SPX_ODE_HEADER_PRECISION "dSINGLE"
#else
#define SPX_ODE_HEADER_PRECISION "dDOUBLE"
#endif

namespace {

constexpr bool same_text(const char* a, const char* b) { return *a == *b && (*a == '\0' || same_text(a + 1, b + 1)); }

#if defined(SPX_BENCH_ODE_PC_PRECISION)
// The library computes in the precision it was built with; headers that disagree would hand it
// arrays of the wrong element size.
static_assert(same_text(SPX_BENCH_ODE_PC_PRECISION, "") ||
                  same_text(SPX_BENCH_ODE_PC_PRECISION, SPX_ODE_HEADER_PRECISION),
              "ode.pc and ode/precision.h disagree on dSINGLE/dDOUBLE");
#endif

struct Box {
    dVector3 p;    // centre
    dMatrix3 R;    // R[4 * row + column]; column j is the box's axis j
    dVector3 side; // full lengths
};

struct Pairs {
    std::vector<Box> a, b;
};

Box to_ode(const spx_obb& box)
{
    Box o;
    std::memset(&o, 0, sizeof o);
    o.p[0] = dReal(box.center.x);
    o.p[1] = dReal(box.center.y);
    o.p[2] = dReal(box.center.z);
    for (int j = 0; j < 3; ++j) {
        o.R[4 * 0 + j] = dReal(box.rotation.col[j].x);
        o.R[4 * 1 + j] = dReal(box.rotation.col[j].y);
        o.R[4 * 2 + j] = dReal(box.rotation.col[j].z);
    }
    o.side[0] = dReal(2) * dReal(box.half_extents.x);
    o.side[1] = dReal(2) * dReal(box.half_extents.y);
    o.side[2] = dReal(2) * dReal(box.half_extents.z);
    return o;
}

void* prepare(const spx_obb* a, const spx_obb* b, size_t count)
{
    static const int initialised = dInitODE2(0);
    (void)initialised;
    try {
        auto* pairs = new Pairs;
        pairs->a.reserve(count);
        pairs->b.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            pairs->a.push_back(to_ode(a[i]));
            pairs->b.push_back(to_ode(b[i]));
        }
        return pairs;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void run_touches(void* prepared, size_t count, uint8_t* out)
{
    const Pairs& pairs = *static_cast<const Pairs*>(prepared);
    for (size_t i = 0; i < count; ++i) {
        const Box& a = pairs.a[i];
        const Box& b = pairs.b[i];
        out[i] = dBoxTouchesBox(a.p, a.R, a.side, b.p, b.R, b.side) ? 1 : 0;
    }
}

volatile dReal sink;

void run_box_box(void* prepared, size_t count, uint8_t* out)
{
    const Pairs& pairs = *static_cast<const Pairs*>(prepared);
    dReal sum = 0;
    for (size_t i = 0; i < count; ++i) {
        const Box& a = pairs.a[i];
        const Box& b = pairs.b[i];
        dVector3 normal;
        dReal depth = 0;
        int code = 0;
        dContactGeom contacts[4];
        int n =
            dBoxBox(a.p, a.R, a.side, b.p, b.R, b.side, normal, &depth, &code, 4, contacts, int(sizeof(dContactGeom)));
        out[i] = uint8_t(n);
        sum += depth;
    }
    sink = sink + sum;
}

void release(void* prepared) { delete static_cast<Pairs*>(prepared); }

const bench_peer peers[] = {
    { "ode", "overlap_obb_obb", "dBoxTouchesBox", prepare, run_touches, release, nullptr },
    { "ode", "manifold_obb_obb", "dBoxBox (flags 4)", prepare, run_box_box, release, nullptr },
};

} // namespace

extern "C" const bench_peer* bench_peers_ode(size_t* out_count)
{
    *out_count = sizeof peers / sizeof peers[0];
    return peers;
}

extern "C" const char* bench_version_ode(void)
{
    return "ODE " SPX_BENCH_ODE_VERSION " (" SPX_ODE_HEADER_PRECISION ")";
}
