// sepax_bench round peers (C++): a peer's own copy of each sepax hull, made once however many problems
// share the hull, as bodies share a built hull.
#ifndef SPX_BENCH_PEERS_HULL_CACHE_H
#define SPX_BENCH_PEERS_HULL_CACHE_H

#include <sepax/hull.h>

#include <cstddef>
#include <vector>

template <class Shape> struct HullCache {
    std::vector<Shape> shapes;            // the peer's hulls
    std::vector<const spx_hull*> sources; // the sepax hull each was made from

    // The index of h's copy in shapes, made by make(h) the first time h is met.
    template <class Make> size_t index(const spx_hull* h, Make make)
    {
        for (size_t k = 0; k < sources.size(); ++k)
            if (sources[k] == h) return k;
        shapes.push_back(make(h));
        sources.push_back(h);
        return shapes.size() - 1;
    }
};

// The corners of h, in its order.
inline std::vector<spx_vec3> hull_corners(const spx_hull* h)
{
    spx_hull_info info;
    spx_hull_get_info(h, &info);
    std::vector<spx_vec3> corners(info.corner_count);
    for (uint32_t i = 0; i < info.corner_count; ++i) spx_hull_get_corner(h, i, &corners[i]);
    return corners;
}

#endif
