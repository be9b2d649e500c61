/* sepax_bench: the list of peers compiled in. CMake defines SPX_BENCH_HAVE_<PEER> for each peer it
   found; with none the list is empty and the harness needs no C++ at all. */
#include "peers.h"

#include <stdio.h>

#define MAX_PEERS 16

typedef const bench_peer* peer_part_fn(size_t* out_count);

static peer_part_fn* const parts[] = {
#if defined(SPX_BENCH_HAVE_FCL)
    bench_peers_fcl,
#endif
#if defined(SPX_BENCH_HAVE_ODE)
    bench_peers_ode,
#endif
#if defined(SPX_BENCH_HAVE_BULLET)
    bench_peers_bullet,
#endif
    NULL
};

const bench_peer* bench_peer_list(size_t* out_count)
{
    static bench_peer list[MAX_PEERS];
    static size_t count = 0;
    static int filled = 0;
    if (!filled) {
        for (size_t p = 0; parts[p]; ++p) {
            size_t n = 0;
            const bench_peer* part = parts[p](&n);
            for (size_t i = 0; i < n && count < MAX_PEERS; ++i) list[count++] = part[i];
        }
        filled = 1;
    }
    *out_count = count;
    return list;
}

const char* bench_peer_versions(void)
{
    static char text[512];
    if (text[0]) return text;
    const char* versions[] = {
#if defined(SPX_BENCH_HAVE_FCL)
        bench_version_fcl(),
#endif
#if defined(SPX_BENCH_HAVE_ODE)
        bench_version_ode(),
#endif
#if defined(SPX_BENCH_HAVE_BULLET)
        bench_version_bullet(),
#endif
        NULL
    };
    size_t used = 0;
    for (size_t i = 0; versions[i] && used < sizeof text; ++i)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", i ? "; " : "", versions[i]);
    if (!text[0]) snprintf(text, sizeof text, "none (configure with -DSEPAX_BENCH_PEERS=ON)");
    return text;
}
