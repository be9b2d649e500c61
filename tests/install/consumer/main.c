/* Install check: a host program that sees only the installed headers and library. It checks a
 * few answers so that a build that links but misbehaves (wrong library picked up) also fails. */
#include <sepax/sepax.h>

#include <math.h>
#include <stdio.h>

int main(void)
{
    const int expected = SPX_VERSION_MAJOR * 10000 + SPX_VERSION_MINOR * 100 + SPX_VERSION_PATCH;
    if (spx_version() != expected) {
        fprintf(stderr, "consumer: header version %d, library version %d\n", expected, spx_version());
        return 1;
    }

    /* Two unit cubes 3 m apart, centre to centre, along x. */
    const spx_quat identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    spx_obb a, b;
    if (spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), identity, &a) != SPX_OK ||
        spx_obb_from_quat(spx_v3(3, 0, 0), spx_v3(1, 1, 1), identity, &b) != SPX_OK) {
        fprintf(stderr, "consumer: could not build the boxes\n");
        return 1;
    }
    bool overlap = true;
    spx_result r = spx_overlap_obb_obb(&a, &b, &overlap);
    if (r != SPX_OK || overlap) {
        fprintf(stderr, "consumer: overlap: %s, overlap=%d (expected none)\n", spx_result_string(r), (int)overlap);
        return 1;
    }
    /* Close the 1 m gap at 2 m/s: first contact at t = 0.5 s, normal +x (from a towards b). */
    spx_sweep_hit hit;
    r = spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(-2, 0, 0), 1.0f, &hit);
    if (r != SPX_OK || hit.state != SPX_SWEEP_HIT || fabsf(hit.time - 0.5f) > 1e-4f || hit.normal.x < 0.999f) {
        fprintf(stderr, "consumer: sweep: %s, state %d, time %g, normal.x %g (expected hit at 0.5 along +x)\n",
                spx_result_string(r), (int)hit.state, (double)hit.time, (double)hit.normal.x);
        return 1;
    }
    /* Bad input must come back as a code, not a crash. */
    if (spx_obb_validate(NULL) != SPX_ERR_INVALID_ARGUMENT) {
        fprintf(stderr, "consumer: spx_obb_validate(NULL) did not report SPX_ERR_INVALID_ARGUMENT\n");
        return 1;
    }
    printf("consumer: sepax %d.%d.%d linked; separated cubes: no overlap, first contact at t = %.3f s\n",
           spx_version() / 10000, spx_version() / 100 % 100, spx_version() % 100, (double)hit.time);
    return 0;
}
