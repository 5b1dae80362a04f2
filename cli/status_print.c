#include "cli/status_print.h"

#include <cJSON.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/status_research.h"
#include "cli/textcol.h"
#include "core/utf8.h"
#include "data/ingest/fields.h"
#include "data/store/store.h"

static void fmt_date(int64_t t, char *buf, size_t n)
{
    if (t == CP_TIME_NONE) {
        snprintf(buf, n, "-");
        return;
    }
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    snprintf(buf, n, "%04d-%02d-%02d", y, mo, d);
}

static int print_json(const StoreStatus *s, const ResearchData *rd, FILE *out)
{
    char first[16], last[16];
    fmt_date(s->first_submit, first, sizeof first);
    fmt_date(s->last_submit, last, sizeof last);
    cJSON *o = cJSON_CreateObject();
    cli_json_schema(o, "status");
    cJSON_AddNumberToObject(o, "jobs", (double)s->jobs);
    cJSON_AddNumberToObject(o, "attempts", (double)s->attempts);
    cJSON_AddNumberToObject(o, "users", (double)s->users);
    cJSON_AddNumberToObject(o, "accounts", (double)s->accounts);
    cJSON_AddNumberToObject(o, "groups", (double)s->groups);
    cJSON_AddNumberToObject(o, "people", (double)s->people);
    cJSON_AddNumberToObject(o, "gpu_hours", s->gpu_hours);
    cJSON_AddNumberToObject(o, "cpu_hours", s->cpu_hours);
    cJSON_AddNumberToObject(o, "inventory_rows", (double)s->inventory_rows);
    cJSON_AddNumberToObject(o, "events", (double)s->events);
    cJSON_AddNumberToObject(o, "pubs", (double)s->pubs);
    cJSON_AddNumberToObject(o, "gpu_metrics", (double)s->gpu_metrics);
    cJSON_AddNumberToObject(o, "imports", (double)s->imports);
    if (s->first_submit != CP_TIME_NONE) {
        cJSON_AddStringToObject(o, "first_submit", first);
        cJSON_AddStringToObject(o, "last_submit", last);
    } else {
        cJSON_AddNullToObject(o, "first_submit");
        cJSON_AddNullToObject(o, "last_submit");
    }
    cJSON *cl = cJSON_AddArrayToObject(o, "clusters");
    for (int i = 0; i < s->nclusters; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", s->clusters[i].name);
        cJSON_AddNumberToObject(c, "jobs", (double)s->clusters[i].count);
        cJSON_AddItemToArray(cl, c);
    }
    cJSON_AddItemToObject(o, "research", cJSON_CreateObject());
    status_research_json(cJSON_GetObjectItem(o, "research"), rd);
    int rc = cli_print_json(o, out);
    cJSON_Delete(o);
    return rc < 0 ? cli_error("status: cannot write JSON") : 0;
}

static void print_text(const StoreStatus *s, FILE *out)
{
    char first[16], last[16], name[256];
    fmt_date(s->first_submit, first, sizeof first);
    fmt_date(s->last_submit, last, sizeof last);
    fprintf(out, "jobs         %12lld  (%lld attempts)\n", (long long)s->jobs,
            (long long)s->attempts);
    fprintf(out, "GPU-hours    %12.0f\n", s->gpu_hours);
    fprintf(out, "CPU-hours    %12.0f\n", s->cpu_hours);
    fprintf(out, "submitted    %s .. %s\n", first, last);
    fprintf(out, "users        %12lld\n", (long long)s->users);
    fprintf(out, "accounts     %12lld\n", (long long)s->accounts);
    fprintf(out, "roster       %12lld people in %lld groups\n", (long long)s->people,
            (long long)s->groups);
    fprintf(out, "inventory    %12lld rows\n", (long long)s->inventory_rows);
    fprintf(out, "events       %12lld\n", (long long)s->events);
    fprintf(out, "publications %12lld\n", (long long)s->pubs);
    fprintf(out, "gpu metrics  %12lld jobs\n", (long long)s->gpu_metrics);
    fprintf(out, "clusters     %12lld\n", (long long)s->clusters_n);
    int w = 20; /* the names' column: 20 display columns, or the widest */
    for (int i = 0; i < s->nclusters; i++)
        if (utf8_width(s->clusters[i].name) > w)
            w = utf8_width(s->clusters[i].name);
    for (int i = 0; i < s->nclusters; i++) {
        fputs("  ", out);
        textcol_put(out, s->clusters[i].name, w, 0);
        fprintf(out, " %10lld jobs\n", (long long)s->clusters[i].count);
    }
    fprintf(out, "imports      %12lld\n", (long long)s->imports);
    for (int i = 0; i < s->nrecent; i++) {
        cli_sanitize(name, sizeof name, s->recent_imports[i].name);
        fprintf(out, "  %s: %lld added\n", name, (long long)s->recent_imports[i].count);
    }
}

int status_print(Store *st, int json, FILE *out)
{
    StoreStatus s;
    CpErr err;
    ResearchData rd;
    if (store_status(st, &s, &err) < 0 || store_research_load(st, 0, &rd, &err) < 0) {
        store_status_free(&s);
        return cli_error("%s", err.msg);
    }
    int rc = 0;
    if (json)
        rc = print_json(&s, &rd, out);
    else {
        print_text(&s, out);
        status_research_text(out, &rd);
    }
    store_research_done(&rd);
    store_status_free(&s);
    return rc;
}
