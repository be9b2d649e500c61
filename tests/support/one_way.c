/* The tests' one-way platform (one_way.h). */
#include "one_way.h"

bool test_one_way_pre_solve(const spx_contact_data* c, void* context)
{
    test_one_way* o = context;
    const bool a = c->shape_a.index == o->platform.index, b = c->shape_b.index == o->platform.index;
    if (!a && !b) return true;
    ++o->asked;
    /* The normal goes from a to b: from the platform to the other body when the platform is a. */
    const float up = a ? c->normal.y : -c->normal.y;
    const bool keep = up > o->min_up;
    o->refused += !keep;
    return keep;
}
