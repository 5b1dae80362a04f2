/* demo_policy: what `stats fairshare` and `stats energy` need of the demo,
 * in the layouts `capplan import allocations` and `import carbon` read:
 *   allocations.csv  group,year,gpu_hours: the groups of the national
 *                    cluster cirrus, each year from the allocation's start,
 *                    an equal share of cirrus's GPU-hours that year (its
 *                    GPUs in inventory.csv amid the part of the year it ran
 *                    x that part's hours / the groups)
 *   carbon.csv       datetime,zone,carbon_intensity: one hourly series,
 *                    zone DE, over the whole history (gCO2e/kWh: 380 on
 *                    average, 60 more in winter than in summer, 110 less
 *                    at solar noon than at night, +-25 of noise), which
 *                    every cluster takes (one zone imported, no sites)
 * Its own random stream (13): the rest of the demo is unchanged. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/demo/demo_model.h"
#include "data/ingest/fields.h"

#define CARBON_STREAM 13

static int first_cirrus_pool(const DemoWorld *w)
{
    for (int p = 0; p < DEMO_NPOOLS; p++)
        if (strcmp(w->clusters[w->pools[p].cluster].name, "cirrus") == 0)
            return p;
    return -1;
}

/* GPUs of cirrus at t as inventory.csv lists them (every pool of it). */
static int cirrus_gpus(const DemoWorld *w, int64_t t)
{
    int n = 0;
    for (int p = 0; p < DEMO_NPOOLS; p++) {
        const DemoPool *q = &w->pools[p];
        if (strcmp(w->clusters[q->cluster].name, "cirrus") != 0)
            continue;
        int g = 0;
        for (int k = 0; k < q->nsteps && q->from[k] <= t; k++)
            g = q->gpus_file[k];
        n += g;
    }
    return n;
}

static void allocations_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "group,year,gpu_hours\n");
    int p = first_cirrus_pool(w), ngroups = 0;
    for (int g = 0; g < w->ngroups; g++)
        ngroups += w->groups[g].cirrus != 0;
    if (p < 0 || ngroups == 0)
        return;
    int y0, y1, mo, d, h, mi, s;
    fields_civil_of(w->pools[p].from[0], &y0, &mo, &d, &h, &mi, &s);
    fields_civil_of(w->today - 1, &y1, &mo, &d, &h, &mi, &s);
    for (int y = y0; y <= y1; y++) {
        int64_t start = demo_date(y, 1, 1), end = demo_date(y + 1, 1, 1);
        if (start < w->pools[p].from[0])
            start = w->pools[p].from[0];
        int gpus = cirrus_gpus(w, start + (end - start) / 2);
        double hours = (double)gpus * (double)(end - start) / 3600.0 / ngroups;
        for (int g = 0; g < w->ngroups; g++) {
            if (!w->groups[g].cirrus)
                continue;
            demo_out_csv(o, w->groups[g].name);
            demo_out_ch(o, ',');
            demo_out_int(o, y);
            demo_out_ch(o, ',');
            demo_out_int(o, (int64_t)llround(hours));
            demo_out_ch(o, '\n');
        }
    }
}

static void carbon_body(const DemoWorld *w, DemoOut *o)
{
    DemoRng r;
    demo_rng_seed(&r, w->o->seed, CARBON_STREAM);
    demo_out_str(o, "datetime,zone,carbon_intensity\n");
    const double pi = 3.14159265358979323846;
    for (int64_t t = w->t0 - w->t0 % 3600; t < w->today; t += 3600) {
        double day = (double)(t % (365 * 86400)) / 86400.0; /* about the day of the year */
        double hour = (double)(t % 86400) / 3600.0;
        double v = 380 + 30 * cos(2 * pi * day / 365.0) - 55 * cos(2 * pi * (hour - 12) / 24.0) +
                   demo_rng_range(&r, -25, 25);
        demo_out_time(o, t);
        demo_out_str(o, ",DE,");
        demo_out_fixed(o, v, 1);
        demo_out_ch(o, '\n');
    }
}

int demo_write_policy(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err)
{
    static const struct {
        const char *name, *kind;
        void (*body)(const DemoWorld *, DemoOut *);
    } out[] = {{"allocations.csv", "allocations", allocations_body},
               {"carbon.csv", "carbon", carbon_body}};
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", dir, out[i].name);
        DemoOut o;
        if (demo_out_open(&o, path, err) < 0)
            return -1;
        out[i].body(w, &o);
        if (demo_out_close(&o, err) < 0)
            return -1;
        demo_files_add(files, out[i].kind, path, o.bytes);
    }
    return 0;
}
