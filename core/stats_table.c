/* stats_table: the result tables of every kind (see stats.h). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- result tables ---- */

#define MAX_TABLES 8 /* tables of one report: allocated at once, so pointers stay */

StatsTable *stats_report_add_table(StatsReport *r, const char *key, const char *title,
                                   const StatsCol *cols, size_t ncols)
{
    assert(r->ntables < MAX_TABLES);
    if (!r->tables)
        r->tables = xcalloc(MAX_TABLES, sizeof *r->tables);
    StatsTable *t = &r->tables[r->ntables++];
    memset(t, 0, sizeof *t);
    t->key = key;
    t->title = title;
    t->cols = cols;
    t->ncols = ncols;
    return t;
}

StatsCell *stats_table_add_row(StatsTable *t)
{
    if (t->nrows == t->caprows) {
        t->caprows = t->caprows ? t->caprows * 2 : 16;
        t->cells = xrealloc(t->cells, t->caprows * t->ncols * sizeof *t->cells);
    }
    StatsCell *row = &t->cells[t->nrows++ * t->ncols];
    for (size_t i = 0; i < t->ncols; i++) {
        row[i].num = NAN;
        row[i].text = NULL;
    }
    return row;
}

void stats_cell_set_text(StatsTable *t, StatsCell *c, const char *s)
{
    if (t->nstrs == t->capstrs) {
        t->capstrs = t->capstrs ? t->capstrs * 2 : 16;
        t->strs = xrealloc(t->strs, t->capstrs * sizeof *t->strs);
    }
    char *copy = xstrdup(s ? s : "");
    t->strs[t->nstrs++] = copy;
    c->text = copy;
}

/* a / b, NaN when b is not positive. */
double stats_ratio(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

void stats_report_free(StatsReport *r)
{
    for (size_t i = 0; i < r->ntables; i++) {
        StatsTable *t = &r->tables[i];
        for (size_t s = 0; s < t->nstrs; s++)
            free(t->strs[s]);
        free(t->strs);
        free(t->cells);
    }
    free(r->tables);
    memset(r, 0, sizeof *r);
}

const StatsTable *stats_report_table(const StatsReport *r, const char *key)
{
    for (size_t i = 0; i < r->ntables; i++)
        if (strcmp(r->tables[i].key, key) == 0)
            return &r->tables[i];
    return NULL;
}

static long col_index(const StatsTable *t, const char *key)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].key, key) == 0)
            return (long)c;
    return -1;
}

const StatsCell *stats_table_cell(const StatsTable *t, size_t row, const char *col)
{
    long c = col_index(t, col);
    if (c < 0 || row >= t->nrows)
        return NULL;
    return &t->cells[row * t->ncols + (size_t)c];
}

long stats_table_find(const StatsTable *t, const char *const *keys, const char *const *values,
                      size_t n)
{
    for (size_t r = 0; r < t->nrows; r++) {
        size_t k = 0;
        for (; k < n; k++) {
            const StatsCell *c = stats_table_cell(t, r, keys[k]);
            if (!c || !c->text || strcmp(c->text, values[k]) != 0)
                break;
        }
        if (k == n)
            return (long)r;
    }
    return -1;
}
