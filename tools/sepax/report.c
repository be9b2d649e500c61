/* sepax (the program): the run summary and the trajectory CSV (see report.h). */
#include "report.h"

static uint32_t count_meshes(const scene* s, uint32_t* triangles)
{
    *triangles = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->mesh_count; ++i) {
        spx_mesh_info info;
        if (s->meshes[i].mesh && spx_mesh_get_info(s->meshes[i].mesh, &info) == SPX_OK)
            ++n, *triangles += info.triangle_count;
    }
    return n;
}

void report_contacts(char* out, size_t size, uint32_t solver_points, uint32_t manifolds, uint32_t touching_points)
{
    snprintf(out, size, "%u solver points in %u manifolds (speculative ones included), %u touching (within %g mm)",
             solver_points, manifolds, touching_points, 1000.0 * (double)MEASURE_TOUCH_GAP);
}

void report_summary(FILE* f, const scene* s, const run_figures* r)
{
    uint32_t triangles, meshes = count_meshes(s, &triangles);
    const measure_result* e = &r->end;
    fprintf(f, "scene         %s (%s): %u bodies, %u dynamic", s->name, s->file, s->body_count, e->dynamic);
    if (meshes) fprintf(f, "; %u mesh%s, %u triangles", meshes, meshes == 1 ? "" : "es", triangles);
    fprintf(f, "\n");
    fprintf(f, "steps         %u of %.4g s (%.2f s simulated)\n", r->steps, (double)r->dt,
            (double)r->steps * (double)r->dt);
    fprintf(f,
            "time a step   median %.3f ms, mean %.3f ms (broad %.3f, narrow %.3f, solver %.3f, island %.3f); "
            "%.2f s in all\n",
            r->ms_median, r->ms_mean, r->broad_ms, r->narrow_ms, r->solver_ms, r->island_ms, r->total_s);
    char contacts[160];
    report_contacts(contacts, sizeof contacts, r->points, r->manifolds, e->touching_points);
    fprintf(f, "contacts      last step: %s; %.1f solver points a step on average, %u at most\n", contacts,
            r->mean_points, r->peak_points);
    fprintf(f, "sleeping      %u of %u dynamic bodies\n", e->sleeping, e->dynamic);
    fprintf(f, "energy        kinetic %.4g J\n", e->kinetic);
    fprintf(f, "penetration   deepest %.4f m between two bodies' shapes (%u shape pairs touching)\n",
            (double)e->deepest, e->touching_pairs);
    if (e->has_ground)
        fprintf(f, "fallen        %u dynamic bodies with their centre of mass below the ground (y = %.3f m)\n",
                e->fallen, (double)e->ground_y);
    else fprintf(f, "fallen        - (no static body: no ground to fall through)\n");
}

bool report_csv_header(FILE* f) { return fprintf(f, "time_s,body,name,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n") > 0; }

bool report_csv_rows(FILE* f, const scene* s, double time, bool exact)
{
    for (uint32_t i = 0; i < s->body_count; ++i) {
        if (s->bodies[i].def.type == SPX_BODY_STATIC) continue;
        spx_transform t;
        spx_vec3 v, w;
        if (spx_body_get_transform(s->w, s->ids[i], &t) != SPX_OK ||
            spx_body_get_velocity(s->w, s->ids[i], &v, &w) != SPX_OK)
            return false;
        /* Names are quoted (a JSON name may hold commas); a quote inside is doubled. */
        fprintf(f, exact ? "%.17g,%u,\"" : "%.6f,%u,\"", time, i);
        for (const char* c = s->bodies[i].name; *c; ++c) {
            if (*c == '"') fputc('"', f);
            fputc(*c, f);
        }
        const float x[13] = { t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w, v.x, v.y, v.z, w.x, w.y, w.z };
        if (fputc('"', f) == EOF) return false;
        for (int k = 0; k < 13; ++k)
            if (fprintf(f, exact ? ",%.9g" : k >= 3 && k < 7 ? ",%.7g" : ",%.6g", (double)x[k]) < 0) return false;
        if (fputc('\n', f) == EOF) return false;
    }
    return true;
}
