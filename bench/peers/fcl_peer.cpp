// sepax_bench peer: FCL's static OBB-OBB test (Gottschalk's 15 axes with the |R| + 1e-6 trick).
// fcl::OBB<double> is compiled into libfcl (an extern template), fcl::OBB<float> is instantiated here
// from the header: both are timed, the float one being the closer match to sepax's float input.
#include "peers/peers.h"

#include <fcl/config.h>
#include <fcl/math/bv/OBB.h>

#include <new>
#include <vector>

namespace {

template <typename S>
struct Pairs {
    std::vector<fcl::OBB<S>> a, b;
};

template <typename S>
fcl::OBB<S> to_fcl(const spx_obb& box)
{
    fcl::Matrix3<S> axes;
    for (int i = 0; i < 3; ++i) {   // column i is the box's axis i, as in spx_mat3
        axes(0, i) = S(box.rotation.col[i].x);
        axes(1, i) = S(box.rotation.col[i].y);
        axes(2, i) = S(box.rotation.col[i].z);
    }
    fcl::Vector3<S> center(S(box.center.x), S(box.center.y), S(box.center.z));
    fcl::Vector3<S> extent(S(box.half_extents.x), S(box.half_extents.y), S(box.half_extents.z));
    return fcl::OBB<S>(axes, center, extent);
}

template <typename S>
void* prepare(const spx_obb* a, const spx_obb* b, size_t count)
{
    try {
        auto* pairs = new Pairs<S>;
        pairs->a.reserve(count);
        pairs->b.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            pairs->a.push_back(to_fcl<S>(a[i]));
            pairs->b.push_back(to_fcl<S>(b[i]));
        }
        return pairs;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

template <typename S>
void run(void* prepared, size_t count, uint8_t* out)
{
    const Pairs<S>& pairs = *static_cast<const Pairs<S>*>(prepared);
    for (size_t i = 0; i < count; ++i)
        out[i] = pairs.a[i].overlap(pairs.b[i]) ? 1 : 0;
}

template <typename S>
void release(void* prepared)
{
    delete static_cast<Pairs<S>*>(prepared);
}

const bench_peer peers[] = {
    { "fcl-double", "overlap_obb_obb", "fcl::OBB<double>::overlap", prepare<double>, run<double>, release<double> },
    { "fcl-float", "overlap_obb_obb", "fcl::OBB<float>::overlap", prepare<float>, run<float>, release<float> },
};

} // namespace

extern "C" const bench_peer* bench_peers_fcl(size_t* out_count)
{
    *out_count = sizeof peers / sizeof peers[0];
    return peers;
}

extern "C" const char* bench_version_fcl(void)
{
    return "FCL " FCL_VERSION;
}
