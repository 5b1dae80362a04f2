/* report_sources: the report's last section, where every figure comes
 * from: when and by which capplan it was written, from which database,
 * each import with its date and rows, the accounting window, the clusters
 * and the months they hold, the reference GPU, the scenario and its
 * edits, the GPU catalog. Only reads what report_new gathered. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/mdw.h"
#include "reports/report_int.h"

#define NB 64

static void written(const Report *r, FILE *out)
{
    char today[16], a[16], b[16];
    rpt_date(r->now, today, sizeof today);
    fprintf(out, "Written on %s by capplan %s", today, r->o.version ? r->o.version : "");
    if (r->o.db_path && !r->o.anonymize) {
        fputs(" from the database ", out);
        mdw_text(out, r->o.db_path);
    }
    fputs(".", out);
    if (r->tui.acct_to > r->tui.acct_from) {
        rpt_date(r->tui.acct_from, a, sizeof a);
        rpt_date(r->tui.acct_to - 1, b, sizeof b);
        fprintf(out, " The accounting covers %s to %s (the first submission to the last time "
                     "recorded); a year it covers only in part is marked partial in every "
                     "table.",
                a, b);
    } else
        fputs(" The database holds no accounting.", out);
    fputs("\n\n", out);
}

/* Each cluster with the first and last month it used GPUs in. */
static void clusters(const Report *r, FILE *out)
{
    const StatsTable *t = rpt_table(r, RS_UTIL_MONTH, "utilization");
    fprintf(out, "### Clusters\n\n");
    static const char *const titles[] = {"Cluster", "First month", "Last month", "GPUs now"};
    size_t shown = 0;
    for (int64_t i = 0; i < r->tui.clusters.n; i++) {
        const char *name = r->tui.clusters.names[i];
        if (!name)
            continue;
        const char *first = NULL, *last = NULL;
        for (size_t row = 0; t && row < t->nrows; row++) {
            const StatsCell *c = stats_table_cell(t, row, "cluster");
            const StatsCell *p = stats_table_cell(t, row, "period");
            const StatsCell *h = stats_table_cell(t, row, "gpu_hours");
            if (c && c->text && strcmp(c->text, name) == 0 && h && h->num > 0 && p && p->text) {
                first = first ? first : p->text;
                last = p->text;
            }
        }
        double gpus = 0;
        for (size_t k = 0; k < r->tui.ninventory; k++) {
            const StoreTuiInventory *v = &r->tui.inventory[k];
            if (strcmp(v->cluster, name) == 0 && !v->to)
                gpus += (double)v->gpus;
        }
        char g[NB];
        mdw_num(g, NB, gpus, 0, "GPUs");
        const char *cells[] = {name, first ? first : "no GPU use", last ? last : "-", g};
        if (shown++ == 0)
            mdw_head(out, titles, "lllr", 4);
        mdw_row(out, cells, 4);
    }
    fputs(shown ? "\n" : "No cluster recorded.\n\n", out);
}

static void reference_gpu(const Report *r, FILE *out)
{
    size_t n = 0;
    fprintf(out, "Capacity and demand count GPUs of the reference model, the one the inventory "
                 "gives relative speed 1");
    for (size_t k = 0; k < r->tui.ninventory; k++) {
        const StoreTuiInventory *v = &r->tui.inventory[k];
        int seen = 0;
        for (size_t j = 0; j < k; j++)
            seen |= strcmp(r->tui.inventory[j].gpu_model, v->gpu_model) == 0;
        if (v->relative_speed != 1 || seen)
            continue;
        fputs(n++ ? ", " : ": ", out);
        mdw_text(out, v->gpu_model);
        fprintf(out, " (%.0f GiB)", v->gpu_mem_gib);
    }
    fputs(n ? ". Other models count as their relative speed (an H100 at 5 counts as 5).\n\n"
            : "; no inventory row has relative speed 1, so a GPU counts as its relative "
              "speed as imported.\n\n",
          out);
}

static void scenario(const Report *r, FILE *out)
{
    fprintf(out, "### Scenario\n\nScenario **");
    mdw_text(out, r->scenario);
    if (r->nedits == 0) {
        fprintf(out, "**: every parameter as measured.\n\n");
        return;
    }
    fprintf(out, "**: %zu parameters edited (section %d gives the reasons):\n\n", r->nedits,
            REPORT_PROJECTIONS);
    static const char *const titles[] = {"Parameter", "Group", "Value", "Measured", "Edited on"};
    mdw_head(out, titles, "llrrl", 5);
    for (size_t i = 0; i < r->nedits; i++) {
        const StorePlanParam *e = &r->edits[i];
        char gn[64], v[NB], m[NB], at[16];
        mdw_num(v, NB, e->value, 4, "");
        mdw_num(m, NB, e->measured, 4, "");
        rpt_date(e->at, at, sizeof at);
        const char *cells[] = {e->key,
                               e->group[0] ? rpt_name(r, "group", e->group, gn, sizeof gn)
                                           : "all groups",
                               v, m, at};
        mdw_row(out, cells, 5);
    }
    fputc('\n', out);
}

static void count_cell(char *buf, int64_t v)
{
    if (v < 0)
        snprintf(buf, NB, "-");
    else
        snprintf(buf, NB, "%lld", (long long)v);
}

/* The span of the jobs each import of jobs brought (first and last
 * submission), as kept in imports when it ran: no scan of the jobs. */
static void spans(const Report *r, FILE *out)
{
    static const char *const titles[] = {"Kind", "File", "Imported on", "First submission",
                                         "Last submission"};
    size_t shown = 0;
    for (size_t i = 0; i < r->nsources; i++) {
        const StoreSource *s = &r->sources[i];
        if (s->first_submit <= 0 || s->last_submit < s->first_submit)
            continue;
        char at[16], a[16], b[16];
        const char *slash = strrchr(s->path, '/');
        rpt_date(s->at, at, sizeof at);
        rpt_date(s->first_submit, a, sizeof a);
        rpt_date(s->last_submit, b, sizeof b);
        if (shown++ == 0) {
            fprintf(out, "### Jobs each import brought\n\nThe first and last submission (UTC) "
                         "of the jobs in each file of accounting or traces:\n\n");
            mdw_head(out, titles, "lllll", 5);
        }
        const char *cells[] = {s->kind, r->o.anonymize ? "-" : slash ? slash + 1 : s->path, at,
                               a, b};
        mdw_row(out, cells, 5);
    }
    if (shown)
        fputc('\n', out);
}

static void imports(const Report *r, FILE *out)
{
    fprintf(out, "### Imported files\n\n");
    if (r->nsources == 0) {
        fprintf(out, "Nothing was imported.\n\n");
        return;
    }
    fprintf(out, "Every import, in order (rows: records read; added, updated and rejected as "
                 "`capplan import` counted them)%s:\n\n",
            r->o.anonymize ? "; file names left out of an anonymised report" : "");
    static const char *const titles[] = {"Kind",  "File",    "Format",  "Imported on",
                                         "Rows", "Added", "Updated", "Rejected"};
    mdw_head(out, titles, "llllrrrr", 8);
    for (size_t i = 0; i < r->nsources; i++) {
        const StoreSource *s = &r->sources[i];
        char at[16], c[4][NB];
        const char *slash = strrchr(s->path, '/');
        rpt_date(s->at, at, sizeof at);
        count_cell(c[0], s->rows_read);
        count_cell(c[1], s->added);
        count_cell(c[2], s->updated);
        count_cell(c[3], s->rejected);
        const char *cells[] = {s->kind, r->o.anonymize ? "-" : slash ? slash + 1 : s->path,
                               s->format ? s->format : "-", at, c[0], c[1], c[2], c[3]};
        mdw_row(out, cells, 8);
    }
    fputc('\n', out);
    spans(r, out);
}

static void catalog(const Report *r, FILE *out)
{
    fprintf(out, "### GPU catalog\n\n");
    if (r->ncatalog == 0) {
        fprintf(out, "No GPU catalog was imported (`capplan import catalog FILE.csv`: model, "
                     "memory, relative speed, TDP, price).\n\n");
        return;
    }
    char price[32];
    snprintf(price, sizeof price, "Price per GPU (%s)", r->catalog[0].currency);
    const char *titles[] = {"Model", "Memory", "Relative speed", "TDP", price};
    fprintf(out, "The GPUs one could buy, as imported:\n\n");
    mdw_head(out, titles, "lrrrr", 5);
    for (size_t i = 0; i < r->ncatalog; i++) {
        const CatalogGpu *g = &r->catalog[i];
        char c[4][NB];
        mdw_num(c[0], NB, g->mem_gib, 0, "GiB");
        mdw_num(c[1], NB, g->relative_speed, 2, "");
        mdw_num(c[2], NB, g->tdp_w < 0 ? NAN : g->tdp_w, 0, "W");
        mdw_num(c[3], NB, g->price < 0 ? NAN : g->price, 0, "");
        const char *cells[] = {g->model, c[0], c[1], c[2], c[3]};
        mdw_row(out, cells, 5);
    }
    fputc('\n', out);
}

int rpt_sources(const Report *r, FILE *out, CpErr *err)
{
    (void)err;
    written(r, out);
    reference_gpu(r, out);
    clusters(r, out);
    scenario(r, out);
    catalog(r, out);
    imports(r, out);
    return 0;
}
