/* projection_params: the projection's editable parameters (growth, pool,
 * buffer, profile rates and memory, purchases): made from a model's
 * measured values, copied, reset, set and read by key with their bounds
 * checked (core/projection.h says each function's contract). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/projection_int.h"

ProjParams *projection_params_new(const ProjModel *m)
{
    ProjParams *p = xcalloc(1, sizeof *p);
    p->ngroups = m->G;
    p->nprofiles = m->P;
    p->nyears = m->Y;
    p->nmodels = m->M;
    p->growth = projection_dup_or_zero(NULL, m->G);
    p->pool = projection_dup_or_zero(NULL, m->G);
    p->buffer = projection_dup_or_zero(NULL, m->G);
    p->gpus = projection_dup_or_zero(NULL, m->P);
    p->mem = projection_dup_or_zero(NULL, m->P);
    p->gpus_g = projection_dup_or_zero(NULL, m->G * m->P);
    projection_params_reset(m, p);
    return p;
}

ProjParams *projection_params_copy(const ProjParams *src)
{
    ProjParams *p = xmalloc(sizeof *p);
    *p = *src;
    p->growth = projection_dup_or_zero(src->growth, src->ngroups);
    p->pool = projection_dup_or_zero(src->pool, src->ngroups);
    p->buffer = projection_dup_or_zero(src->buffer, src->ngroups);
    p->gpus = projection_dup_or_zero(src->gpus, src->nprofiles);
    p->mem = projection_dup_or_zero(src->mem, src->nprofiles);
    p->gpus_g = projection_dup_or_zero(src->gpus_g, src->ngroups * src->nprofiles);
    return p;
}

void projection_params_free(ProjParams *p)
{
    if (!p)
        return;
    free(p->growth);
    free(p->pool);
    free(p->buffer);
    free(p->gpus);
    free(p->mem);
    free(p->gpus_g);
    free(p);
}

void projection_params_reset(const ProjModel *m, ProjParams *p)
{
    for (int g = 0; g < m->G; g++) {
        p->growth[g] = m->growth[g];
        p->pool[g] = m->pool[g];
        p->buffer[g] = m->calib.buffer;
    }
    p->intensity = m->intensity;
    p->growth_inst = m->growth_inst;
    p->halflife = dem_halflives[m->calib.half];
    for (int q = 0; q < m->P; q++) {
        p->gpus[q] = m->gpus[q];
        p->mem[q] = m->mem[q];
    }
    for (size_t i = 0; i < (size_t)m->G * (size_t)m->P; i++)
        p->gpus_g[i] = NAN;
    memset(p->purchase, 0, sizeof p->purchase);
}

static const char *const group_keys[] = {"growth", "pool", "buffer"};

int projection_key_is_group(const char *key)
{
    for (size_t i = 0; i < sizeof group_keys / sizeof group_keys[0]; i++)
        if (strcmp(key, group_keys[i]) == 0)
            return 1;
    return 0;
}

int projection_key_takes_group(const char *key)
{
    return projection_key_is_group(key) || strncmp(key, "gpus.", 5) == 0;
}

const char *projection_old_key(const char *key)
{
    if (strcmp(key, "share") == 0 || strcmp(key, "burst") == 0)
        return "model v2 has no share or burst: a group's exploration/HPO pool is one figure, "
               "set it with pool=GPU-EQ";
    if (strncmp(key, "purchase.", 9) == 0) {
        const char *r = key + 9;
        static const char *const cls[] = {"24.", "48.", "80.", "80+."};
        for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++)
            if (strncmp(r, cls[i], strlen(cls[i])) == 0)
                return "purchases name a GPU model of the inventory now: purchase.MODEL.yK=N "
                       "(e.g. purchase.H100.y1=16)";
    }
    return NULL;
}

double projection_gpus_of(const ProjParams *p, int g, int q)
{
    double v = g >= 0 && g < p->ngroups ? p->gpus_g[(size_t)g * (size_t)p->nprofiles + (size_t)q]
                                        : NAN;
    return isnan(v) ? p->gpus[q] : v;
}

static double *group_array(ProjParams *p, const char *key)
{
    if (strcmp(key, "growth") == 0)
        return p->growth;
    if (strcmp(key, "pool") == 0)
        return p->pool;
    return p->buffer;
}

/* A whole positive integer from s (to its end). -1 if not one. */
static int parse_index(const char *s)
{
    if (!*s)
        return -1;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 100000)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return (int)v;
}

typedef enum { REF_GROUP, REF_INST, REF_GPUS, REF_MEM, REF_PURCHASE } RefKind;

typedef struct KeyRef {
    RefKind kind;
    int index;     /* profile (0-based) for gpus/mem; model for purchase */
    int group;     /* gpus: the group (0-based), -1 for every group */
    int year;      /* purchase: year index (0-based) */
} KeyRef;

static int purchase_ref(const ProjModel *m, const char *rest, KeyRef *ref, CpErr *err)
{
    const char *dot = strrchr(rest, '.');
    char name[64];
    int y = dot && dot[1] == 'y' ? parse_index(dot + 2) : -1;
    snprintf(name, sizeof name, "%.*s", dot ? (int)(dot - rest) : 0, rest);
    int mi = dot ? projection_model_index(m, name) : -1;
    if (mi < 0 || y < 1 || y > m->Y) {
        char list[256] = "";
        for (int i = 0; i < m->M; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                     m->models[i].name);
        return cp_err_set(err, "bad key 'purchase.%s': expected purchase.MODEL.yK with MODEL "
                               "one of the inventory's (%s) and K 1..%d",
                          rest, m->M ? list : "none", m->Y);
    }
    ref->kind = REF_PURCHASE;
    ref->index = mi;
    ref->year = y - 1;
    return 0;
}

static int resolve(const ProjModel *m, const char *key, int g, KeyRef *ref, CpErr *err)
{
    memset(ref, 0, sizeof *ref);
    const char *old = projection_old_key(key);
    if (old)
        return cp_err_set(err, "'%s' is a key of model v1: %s", key, old);
    if (g >= m->G)
        return cp_err_set(err, "no group %d", g);
    if (projection_key_is_group(key)) {
        ref->kind = REF_GROUP;
        return 0;
    }
    if (g >= 0 && strncmp(key, "gpus.", 5) != 0)
        return cp_err_set(err, "'%s' is an institute, profile or purchase parameter: no --group",
                          key);
    ref->group = g;
    if (strcmp(key, "intensity") == 0 || strcmp(key, "halflife") == 0) {
        ref->kind = REF_INST;
        return 0;
    }
    if (strncmp(key, "purchase.", 9) == 0)
        return purchase_ref(m, key + 9, ref, err);
    int is_gpus = strncmp(key, "gpus.", 5) == 0, is_mem = strncmp(key, "mem.", 4) == 0;
    if (!is_gpus && !is_mem)
        return cp_err_set(err, "unknown parameter '%s' (growth, pool, buffer, intensity, "
                               "halflife, gpus.N, mem.N, purchase.MODEL.yK)",
                          key);
    int n = parse_index(key + (is_gpus ? 5 : 4));
    if (n < 1 || n > m->P)
        return cp_err_set(err, "bad key '%s': no profile %s (1..%d)", key, key + (is_gpus ? 5 : 4),
                          m->P);
    ref->kind = is_gpus ? REF_GPUS : REF_MEM;
    ref->index = n - 1;
    return 0;
}

/* The largest value each key takes: far beyond any institute, so that a
 * typo (1e308, or 7 meant as 7 %) is refused instead of projected. */
static double max_value(const char *key)
{
    if (strcmp(key, "growth") == 0 || strcmp(key, "buffer") == 0)
        return 2; /* shares: 200 % */
    if (strcmp(key, "intensity") == 0)
        return 1;
    if (strncmp(key, "purchase.", 9) == 0)
        return 1e6; /* GPUs */
    return 1e5;     /* GPU-eq, GiB */
}

static int check_value(const char *key, double v, int is_mem, CpErr *err)
{
    if (!isfinite(v))
        return cp_err_set(err, "%s: value must be a number", key);
    if ((strcmp(key, "growth") == 0 || strcmp(key, "intensity") == 0) && v <= -1)
        return cp_err_set(err, "%s: must be above -1 (a share per year, 0.08 = 8 %%)", key);
    if (strcmp(key, "halflife") == 0 && demand_half_index(v) < 0)
        return cp_err_set(err, "halflife: must be 1, 3, 6 or 12 (months)");
    if (is_mem && v < 0 && v != -1)
        return cp_err_set(err, "%s: must be >= 0 (GiB), or -1 for unknown", key);
    if (!is_mem && strcmp(key, "growth") != 0 && strcmp(key, "intensity") != 0 && v < 0)
        return cp_err_set(err, "%s: must be >= 0", key);
    if (v > max_value(key))
        return cp_err_set(err, "%s: %g is out of range (at most %g%s)", key, v, max_value(key),
                          strcmp(key, "growth") == 0 || strcmp(key, "buffer") == 0 ||
                                  strcmp(key, "intensity") == 0
                              ? ", a share: 0.08 = 8 %"
                              : "");
    return 0;
}

int projection_param_set(const ProjModel *m, ProjParams *p, const char *key, int g,
                         double value, CpErr *err)
{
    KeyRef ref;
    if (resolve(m, key, g, &ref, err) < 0 || check_value(key, value, ref.kind == REF_MEM, err) < 0)
        return -1;
    switch (ref.kind) {
    case REF_GPUS:
        if (ref.group >= 0)
            p->gpus_g[(size_t)ref.group * (size_t)m->P + (size_t)ref.index] = value;
        else
            p->gpus[ref.index] = value;
        break;
    case REF_MEM:
        p->mem[ref.index] = value;
        break;
    case REF_PURCHASE:
        p->purchase[ref.index][ref.year] = value;
        break;
    case REF_INST:
        if (strcmp(key, "intensity") == 0)
            p->intensity = value;
        else
            p->halflife = value;
        break;
    case REF_GROUP: {
        double *arr = group_array(p, key);
        for (int i = 0; i < m->G; i++)
            if (g < 0 || i == g)
                arr[i] = value;
        break;
    }
    }
    return 0;
}

int projection_param_get(const ProjModel *m, const ProjParams *p, const char *key, int g,
                         double *value, CpErr *err)
{
    KeyRef ref;
    if (resolve(m, key, g, &ref, err) < 0)
        return -1;
    switch (ref.kind) {
    case REF_GPUS:
        *value = projection_gpus_of(p, ref.group, ref.index);
        break;
    case REF_MEM:
        *value = p->mem[ref.index];
        break;
    case REF_PURCHASE:
        *value = p->purchase[ref.index][ref.year];
        break;
    case REF_INST:
        *value = strcmp(key, "intensity") == 0 ? p->intensity : p->halflife;
        break;
    case REF_GROUP:
        *value = m->G > 0 ? (strcmp(key, "growth") == 0 ? p->growth
                             : strcmp(key, "pool") == 0 ? p->pool
                                                        : p->buffer)[g < 0 ? 0 : g]
                          : 0;
        break;
    }
    return 0;
}

double projection_mem_of(const ProjModel *m, const ProjParams *p, int q)
{
    (void)m;
    return p->mem[q];
}
