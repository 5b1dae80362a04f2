#include "cli/plan_cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "data/ingest/fields.h"
#include "reports/csvw.h"

static int int_value(const char *opt, const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) {
        cli_error("%s: expected a whole number %d..%d, got '%s'", opt, lo, hi, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int plan_cli_option(int argc, char **argv, int *i, PlanOpts *o)
{
    const char *a = argv[*i];
    int known = strcmp(a, "--window") == 0 || strcmp(a, "--roles") == 0 ||
                strcmp(a, "--min-jobs") == 0 || strcmp(a, "--k") == 0;
    if (!known)
        return 0;
    if (*i + 1 >= argc) {
        cli_error("%s: missing value", a);
        return -1;
    }
    const char *v = argv[++*i];
    if (strcmp(a, "--window") == 0)
        return int_value(a, v, 1, 120, &o->window_months) < 0 ? -1 : 1;
    if (strcmp(a, "--min-jobs") == 0)
        return int_value(a, v, 1, 1000000, &o->min_jobs) < 0 ? -1 : 1;
    if (strcmp(a, "--k") == 0) {
        if (strcmp(v, "auto") == 0) {
            o->k = 0;
            return 1;
        }
        return int_value(a, v, 1, 64, &o->k) < 0 ? -1 : 1;
    }
    o->roles = v;
    return 1;
}

void plan_cli_date(int64_t t, char *buf, size_t n)
{
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    snprintf(buf, n, "%04d-%02d-%02d", y, mo, d);
}

int plan_cli_parse_date(const char *s, int64_t *t)
{
    char buf[16];
    size_t n = strlen(s);
    if (n == 7 && s[4] == '-') {
        snprintf(buf, sizeof buf, "%s-01", s);
        s = buf;
        n = 10;
    }
    if (n != 10 || fields_time(s, n, 0, t, NULL) < 0 || *t == CP_TIME_NONE)
        return -1;
    return 0;
}

void plan_cli_csv_cell(FILE *out, const char *s)
{
    csvw_text(out, s); /* the one CSV writer (#29): formulas after blanks, controls */
}

void plan_cli_csv_num(FILE *out, double v)
{
    fprintf(out, "%.6g", v);
}

const char *plan_cli_who(void)
{
    return plan_who();
}

const char *plan_cli_unit(const Plan *p)
{
    return p->cpu ? "CPU" : "GPU";
}
