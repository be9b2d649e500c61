// sepax_bench collide peer: FCL's static OBB-OBB test (Gottschalk's 15 axes with the |R| + 1e-6 trick).
// fcl::OBB<double> is compiled into libfcl (an extern template), fcl::OBB<float> is instantiated here
// from the header: both are timed, the float one being the closer match to sepax's float input.
#include "peers/peers.h"

#include <fcl/config.h>
#include <fcl/math/bv/OBB.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/narrowphase/continuous_collision.h>

#include <new>
#include <vector>

namespace {

template <typename S> struct Pairs {
    std::vector<fcl::OBB<S>> a, b;
};

template <typename S> fcl::OBB<S> to_fcl(const spx_obb& box)
{
    fcl::Matrix3<S> axes;
    for (int i = 0; i < 3; ++i) { // column i is the box's axis i, as in spx_mat3
        axes(0, i) = S(box.rotation.col[i].x);
        axes(1, i) = S(box.rotation.col[i].y);
        axes(2, i) = S(box.rotation.col[i].z);
    }
    fcl::Vector3<S> center(S(box.center.x), S(box.center.y), S(box.center.z));
    fcl::Vector3<S> extent(S(box.half_extents.x), S(box.half_extents.y), S(box.half_extents.z));
    return fcl::OBB<S>(axes, center, extent);
}

template <typename S> void* prepare(const spx_obb* a, const spx_obb* b, size_t count)
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

template <typename S> void run(void* prepared, size_t count, uint8_t* out)
{
    const Pairs<S>& pairs = *static_cast<const Pairs<S>*>(prepared);
    for (size_t i = 0; i < count; ++i) out[i] = pairs.a[i].overlap(pairs.b[i]) ? 1 : 0;
}

template <typename S> void release(void* prepared) { delete static_cast<Pairs<S>*>(prepared); }

const bench_peer peers[] = {
    { "fcl-double", "overlap_obb_obb", "fcl::OBB<double>::overlap", prepare<double>, run<double>, release<double>,
      nullptr },
    { "fcl-float", "overlap_obb_obb", "fcl::OBB<float>::overlap", prepare<float>, run<float>, release<float>, nullptr },
};

// ---- swept: fcl::continuousCollide on two fcl::Box<double> translating over [0, tmax] -------------

struct Sweeps {
    std::vector<fcl::Box<double>> a, b;                  // centred boxes; the poses carry centre and axes
    std::vector<fcl::Transform3<double>> a0, a1, b0, b1; // poses at t = 0 and t = tmax
    double tmax = 0;
};

fcl::Transform3<double> pose(const spx_obb& box, spx_vec3 shift)
{
    const fcl::OBB<double> o = to_fcl<double>(box);
    fcl::Transform3<double> t = fcl::Transform3<double>::Identity();
    t.linear() = o.axis;
    t.translation() = o.To + fcl::Vector3<double>(shift.x, shift.y, shift.z);
    return t;
}

void* prepare_sweep(const spx_obb* a, const spx_vec3* va, const spx_obb* b, const spx_vec3* vb, size_t count,
                    float tmax)
{
    try {
        auto* s = new Sweeps;
        s->tmax = tmax;
        for (size_t i = 0; i < count; ++i) {
            const spx_vec3 zero{ 0, 0, 0 };
            const spx_vec3 da{ va[i].x * tmax, va[i].y * tmax, va[i].z * tmax },
                db{ vb[i].x * tmax, vb[i].y * tmax, vb[i].z * tmax };
            s->a.emplace_back(2.0 * a[i].half_extents.x, 2.0 * a[i].half_extents.y, 2.0 * a[i].half_extents.z);
            s->b.emplace_back(2.0 * b[i].half_extents.x, 2.0 * b[i].half_extents.y, 2.0 * b[i].half_extents.z);
            s->a0.push_back(pose(a[i], zero));
            s->a1.push_back(pose(a[i], da));
            s->b0.push_back(pose(b[i], zero));
            s->b1.push_back(pose(b[i], db));
        }
        return s;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

// FCL's defaults but the solver: 10 iterations, toc_err 1e-4 (of the motion), translation motion,
// libccd's GJK. Conservative advancement is FCL's method for shape pairs; naive samples the motion
// at num_max_iterations evenly spaced times.
template <fcl::CCDSolverType Solver> void run_sweep(void* prepared, size_t count, double* out)
{
    const Sweeps& s = *static_cast<const Sweeps*>(prepared);
    fcl::ContinuousCollisionRequest<double> request(10, 0.0001, fcl::CCDM_TRANS, fcl::GST_LIBCCD, Solver);
    for (size_t i = 0; i < count; ++i) {
        fcl::ContinuousCollisionResult<double> result;
        fcl::continuousCollide(&s.a[i], s.a0[i], s.a1[i], &s.b[i], s.b0[i], s.b1[i], request, result);
        out[i] = result.is_collide ? result.time_of_contact * s.tmax : -1.0;
    }
}

void release_sweep(void* prepared) { delete static_cast<Sweeps*>(prepared); }

const bench_sweep_peer sweep_peers[] = {
    { "fcl-ca", "fcl::continuousCollide, CCDC_CONSERVATIVE_ADVANCEMENT, GST_LIBCCD, toc_err 1e-4", prepare_sweep,
      run_sweep<fcl::CCDC_CONSERVATIVE_ADVANCEMENT>, release_sweep },
    { "fcl-naive", "fcl::continuousCollide, CCDC_NAIVE (FCL's default: 10 samples), GST_LIBCCD", prepare_sweep,
      run_sweep<fcl::CCDC_NAIVE>, release_sweep },
};

} // namespace

extern "C" const bench_sweep_peer* bench_sweep_peers_fcl(size_t* out_count)
{
    *out_count = sizeof sweep_peers / sizeof sweep_peers[0];
    return sweep_peers;
}

extern "C" const bench_peer* bench_peers_fcl(size_t* out_count)
{
    *out_count = sizeof peers / sizeof peers[0];
    return peers;
}

extern "C" const char* bench_version_fcl(void) { return "FCL " FCL_VERSION; }
