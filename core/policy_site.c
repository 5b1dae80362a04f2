/* policy_site: each cluster's PUE and carbon intensity, and the TDP of a
 * GPU type (policy_int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/policy_int.h"

static const PolicySite *site_of(const PolicyInput *pi, const char *cluster)
{
    for (size_t i = 0; i < pi->nsites; i++)
        if (strcmp(pi->sites[i].cluster, cluster) == 0)
            return &pi->sites[i];
    return NULL;
}

/* The only zone of the series, or NULL when there are none or several. */
static const char *only_zone(const PolicyInput *pi)
{
    for (size_t i = 1; i < pi->ncarbon; i++)
        if (strcmp(pi->carbon[i].zone, pi->carbon[0].zone) != 0)
            return NULL;
    return pi->ncarbon ? pi->carbon[0].zone : NULL;
}

static void zone_series(const PolicyInput *pi, const char *zone, EnergySeries *s)
{
    int64_t *h = xmalloc((pi->ncarbon + 1) * sizeof *h);
    double *g = xmalloc((pi->ncarbon + 1) * sizeof *g);
    size_t n = 0;
    for (size_t i = 0; i < pi->ncarbon; i++)
        if (strcmp(pi->carbon[i].zone, zone) == 0) {
            h[n] = pi->carbon[i].hour;
            g[n++] = pi->carbon[i].g_per_kwh;
        }
    energy_series_build(s, h, g, n, ENERGY_INTENSITY_DEFAULT);
    free(h);
    free(g);
}

static void site_init(PolSite *s, const PolicyInput *pi, const char *cluster)
{
    const PolicySite *ps = site_of(pi, cluster);
    memset(s, 0, sizeof *s);
    s->pue = ps && !isnan(ps->pue) ? ps->pue : ENERGY_PUE_DEFAULT;
    s->pue_src = ps && !isnan(ps->pue) ? "site" : "default";
    s->zone = ps && ps->zone && ps->zone[0] ? ps->zone : ps ? NULL : only_zone(pi);
    if (s->zone) {
        zone_series(pi, s->zone, &s->series);
        if (s->series.given) {
            s->ci_src = ps ? "hourly series" : "hourly series (the only zone)";
            s->hourly = 1;
            return;
        }
        energy_series_free(&s->series);
        s->zone = NULL;
    }
    double ci = ps && !isnan(ps->intensity) ? ps->intensity : ENERGY_INTENSITY_DEFAULT;
    s->ci_src = ps && !isnan(ps->intensity) ? "site" : "default";
    energy_series_build(&s->series, NULL, NULL, 0, ci);
}

PolSite *pol_sites_grow(const PolicyInput *pi, PolSite *s, size_t n)
{
    const StatsInput *in = pi->stats;
    s = xrealloc(s, (in->clusters.n + 1) * sizeof *s);
    for (size_t c = n; c < in->clusters.n; c++)
        site_init(&s[c], pi, pol_name_of(&in->clusters, (int32_t)c));
    memset(&s[in->clusters.n], 0, sizeof *s);
    return s;
}

PolSite *pol_sites(const PolicyInput *pi)
{
    return pol_sites_grow(pi, NULL, 0);
}

void pol_sites_free(PolSite *s, size_t n)
{
    if (!s)
        return;
    for (size_t c = 0; c < n; c++)
        energy_series_free(&s[c].series);
    free(s);
}

/* 1 when an inventory model and a Slurm GPU type name the same GPU. */
static int model_match(const char *model, const char *type)
{
    char a[96], b[96];
    size_t o = 0, p = 0;
    for (const char *s = model; *s && o + 1 < sizeof a; s++)
        if ((*s >= '0' && *s <= '9') || ((*s | 32) >= 'a' && (*s | 32) <= 'z'))
            a[o++] = (char)(*s | ((*s >= 'A' && *s <= 'Z') ? 32 : 0));
    for (const char *s = type; *s && p + 1 < sizeof b; s++)
        if ((*s >= '0' && *s <= '9') || ((*s | 32) >= 'a' && (*s | 32) <= 'z'))
            b[p++] = (char)(*s | ((*s >= 'A' && *s <= 'Z') ? 32 : 0));
    a[o] = b[p] = '\0';
    return o && p && (strstr(a, b) || strstr(b, a));
}

/* TDP of one inventory model: its tdp_w, else the spec sheet's. */
static PolTdp model_tdp(const PolicyInput *pi, const char *cluster, const char *model)
{
    for (size_t i = 0; i < pi->ntdp; i++)
        if (strcmp(pi->tdp[i].cluster, cluster) == 0 && model_match(pi->tdp[i].gpu_model, model))
            return (PolTdp){pi->tdp[i].tdp_w, "inventory", 1};
    double w = energy_tdp_default(model);
    return isnan(w) ? (PolTdp){ENERGY_TDP_FALLBACK, "assumed", 1} : (PolTdp){w, "spec sheet", 1};
}

/* An untyped job: the GPU-weighted mean TDP of its cluster's inventory. */
static PolTdp cluster_tdp(const PolicyInput *pi, const char *cluster)
{
    const StatsInput *in = pi->stats;
    double sum = 0, n = 0;
    const char *src = "spec sheet";
    for (size_t i = 0; i < in->ninventory; i++) {
        if (strcmp(in->inventory[i].cluster, cluster) != 0)
            continue;
        PolTdp t = model_tdp(pi, cluster, in->inventory[i].gpu_model);
        sum += t.w * in->inventory[i].gpus;
        n += in->inventory[i].gpus;
        src = strcmp(t.src, "spec sheet") == 0 ? src : t.src;
    }
    return n > 0 ? (PolTdp){sum / n, src, 1} : (PolTdp){ENERGY_TDP_FALLBACK, "assumed", 1};
}

/* A model's relative speed on cluster: the inventory's, else 1. */
static double model_speed(const PolicyInput *pi, const char *cluster, const char *model)
{
    for (size_t i = 0; i < pi->nspeeds; i++)
        if (strcmp(pi->speeds[i].cluster, cluster) == 0 &&
            model_match(pi->speeds[i].gpu_model, model) && pi->speeds[i].speed > 0)
            return pi->speeds[i].speed;
    return 1;
}

/* An untyped job: the GPU-weighted mean speed of its cluster's inventory. */
static double cluster_speed(const PolicyInput *pi, const char *cluster)
{
    const StatsInput *in = pi->stats;
    double sum = 0, n = 0;
    for (size_t i = 0; i < in->ninventory; i++)
        if (strcmp(in->inventory[i].cluster, cluster) == 0) {
            sum += model_speed(pi, cluster, in->inventory[i].gpu_model) * in->inventory[i].gpus;
            n += in->inventory[i].gpus;
        }
    return n > 0 ? sum / n : 1;
}

PolTdp pol_tdp(const PolicyInput *pi, const char *cluster, const char *type)
{
    int typed = type && type[0];
    PolTdp t = typed ? model_tdp(pi, cluster, type) : cluster_tdp(pi, cluster);
    t.speed = typed ? model_speed(pi, cluster, type) : cluster_speed(pi, cluster);
    return t;
}
