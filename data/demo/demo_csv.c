/* demo_csv: the institute's reference files, in the layouts `capplan
 * import` reads (RFC 4180, UTF-8, a header line):
 *   roster.csv       user,group,role,domain,start,end,supervisor,name,planned_end
 *   inventory.csv    cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed,tdp_w
 *   events.csv       date,cluster,label
 *   pubs.csv         year,group,title,domain,authors
 *   gpu-metrics.csv  job_id,gpu_mem_max_gib,gpu_util_mean,cluster (cirrus, whose
 *                    sacct has no GPU memory: the centre's own monitor)
 *   notes.csv        group,user,date,text
 *   stated_needs.csv user,group,date,gpus_fulltime,gpu_mem_class_gib,typical_hours,
 *                    burst_per_month,burst_gpus,burst_hours,text
 * An inventory period's "to" is its last day (the day before the next
 * period's "from"); an open period has none. A roster "end" may lie in the
 * future: the expected graduation or contract end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/demo/demo_model.h"

void demo_files_add(DemoFiles *f, const char *kind, const char *path, int64_t bytes)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 32;
        f->path = xrealloc(f->path, (size_t)f->cap * sizeof *f->path);
        f->kind = xrealloc(f->kind, (size_t)f->cap * sizeof *f->kind);
    }
    snprintf(f->path[f->n], sizeof f->path[f->n], "%s", path);
    f->kind[f->n] = kind;
    f->n++;
    f->bytes += bytes;
}

void demo_files_done(DemoFiles *f)
{
    free(f->path);
    free(f->kind);
    memset(f, 0, sizeof *f);
}

typedef void (*CsvBody)(const DemoWorld *w, DemoOut *o);

/* Write dir/name with body, and list it as kind. */
static int write_csv(const DemoWorld *w, const char *dir, const char *name, const char *kind,
                     CsvBody body, DemoFiles *files, CpErr *err)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    DemoOut o;
    if (demo_out_open(&o, path, err) < 0)
        return -1;
    body(w, &o);
    if (demo_out_close(&o, err) < 0)
        return -1;
    if (kind)
        demo_files_add(files, kind, path, o.bytes);
    else
        files->bytes += o.bytes;
    return 0;
}

static void end_field(DemoOut *o)
{
    demo_out_ch(o, ',');
}

static void roster_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "user,group,role,domain,start,end,supervisor,name,planned_end\n");
    for (int i = 0; i < w->npeople; i++) {
        const DemoPerson *p = &w->people[i];
        const DemoGroup *g = &w->groups[p->group];
        demo_out_csv(o, p->user);
        end_field(o);
        demo_out_csv(o, g->name);
        end_field(o);
        demo_out_str(o, demo_role_names[p->role]);
        end_field(o);
        demo_out_csv(o, demo_domains[g->domain].name);
        end_field(o);
        demo_out_date(o, p->start);
        end_field(o);
        if (p->end != DEMO_NEVER)
            demo_out_date(o, p->end);
        end_field(o);
        if (p->role != DEMO_ROLE_PROFESSOR)
            demo_out_csv(o, w->people[g->prof].user);
        end_field(o);
        demo_out_str(o, p->first); /* the name papers write (issue 18) */
        demo_out_ch(o, ' ');
        demo_out_str(o, p->last);
        end_field(o);
        if (p->planned != DEMO_NEVER) /* issue 28: known in advance, unlike end */
            demo_out_date(o, p->planned);
        demo_out_ch(o, '\n');
    }
}

static void inventory_row(const DemoPool *p, const char *cluster, int k, DemoOut *o)
{
    demo_out_str(o, cluster);
    end_field(o);
    demo_out_str(o, p->model);
    end_field(o);
    demo_out_int(o, p->gpus_file[k]);
    end_field(o);
    demo_out_fixed(o, p->mem_gib, 0);
    end_field(o);
    demo_out_date(o, p->from[k]);
    end_field(o);
    if (k + 1 < p->nsteps)
        demo_out_date(o, p->from[k + 1] - DEMO_DAY);
    end_field(o);
    demo_out_fixed(o, p->speed, 1);
    end_field(o);
    demo_out_fixed(o, p->tdp_w, 0);
    demo_out_ch(o, '\n');
}

static void inventory_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed,tdp_w\n");
    for (int p = 0; p < DEMO_NPOOLS; p++) {
        const DemoPool *pl = &w->pools[p];
        for (int k = 0; k < pl->nsteps; k++)
            if (pl->gpus_file[k] > 0)
                inventory_row(pl, w->clusters[pl->cluster].name, k, o);
    }
}

static void events_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "date,cluster,label\n");
    for (int i = 0; i < w->nevents; i++) {
        const DemoEvent *e = &w->events[i];
        demo_out_date(o, e->date);
        end_field(o);
        demo_out_str(o, w->clusters[e->cluster].name);
        end_field(o);
        demo_out_csv(o, e->label);
        demo_out_ch(o, '\n');
    }
}

static void pubs_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "year,group,title,domain,authors\n");
    for (int i = 0; i < w->npubs; i++) {
        const DemoPub *p = &w->pubs[i];
        const DemoGroup *g = &w->groups[p->group];
        demo_out_int(o, p->year);
        end_field(o);
        demo_out_csv(o, g->name);
        end_field(o);
        demo_out_csv(o, p->title);
        end_field(o);
        demo_out_csv(o, demo_domains[g->domain].name);
        end_field(o);
        demo_out_csv(o, p->authors);
        demo_out_ch(o, '\n');
    }
}

/* Attempts of cirrus GPU jobs that ran: the centre's monitor measures each. */
static void metrics_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "job_id,gpu_mem_max_gib,gpu_util_mean,cluster\n");
    for (size_t i = 0; i < w->norder; i++) {
        const DemoJob *j = &w->jobs[w->order[i]];
        const DemoCluster *c = &w->clusters[w->pools[j->pool].cluster];
        if (!j->gpus || j->start == DEMO_NEVER || c->gpumem_from != DEMO_NEVER)
            continue;
        demo_out_int(o, j->job_raw);
        end_field(o);
        demo_out_fixed(o, j->gpu_mem, 2);
        end_field(o);
        demo_out_fixed(o, j->gpu_util, 1);
        end_field(o);
        demo_out_str(o, c->name);
        demo_out_ch(o, '\n');
    }
}

static void notes_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "group,user,date,text\n");
    for (int i = 0; i < w->nnotes; i++) {
        const DemoNote *n = &w->notes[i];
        demo_out_csv(o, w->groups[n->group].name);
        end_field(o);
        if (n->person >= 0)
            demo_out_csv(o, w->people[n->person].user);
        end_field(o);
        demo_out_date(o, n->date);
        end_field(o);
        demo_out_csv(o, n->text);
        demo_out_ch(o, '\n');
    }
}

static void needs_body(const DemoWorld *w, DemoOut *o)
{
    demo_out_str(o, "user,group,date,gpus_fulltime,gpu_mem_class_gib,typical_hours,"
                    "burst_per_month,burst_gpus,burst_hours,text\n");
    for (int i = 0; i < w->nneeds; i++) {
        const DemoNeed *n = &w->needs[i];
        const DemoPerson *p = &w->people[n->person];
        demo_out_csv(o, p->user);
        end_field(o);
        demo_out_csv(o, w->groups[p->group].name);
        end_field(o);
        demo_out_date(o, n->date);
        end_field(o);
        demo_out_fixed(o, n->gpus_fulltime, 1);
        end_field(o);
        demo_out_int(o, n->mem_class_gib);
        end_field(o);
        demo_out_fixed(o, n->typical_hours, 1);
        end_field(o);
        demo_out_fixed(o, n->burst_per_month, 1);
        end_field(o);
        demo_out_int(o, n->burst_gpus);
        end_field(o);
        demo_out_fixed(o, n->burst_hours, 1);
        end_field(o);
        demo_out_csv(o, n->text);
        demo_out_ch(o, '\n');
    }
}

/* The reference files, before the accounting: the roster defines the
 * groups, the inventory the capacity. gpu-metrics is written here but
 * listed by demo_write_sacct's caller after the accounting it refers to;
 * notes and stated needs have no import and are not listed. */
int demo_write_csv(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err)
{
    if (write_csv(w, dir, "roster.csv", "roster", roster_body, files, err) < 0 ||
        write_csv(w, dir, "inventory.csv", "inventory", inventory_body, files, err) < 0 ||
        write_csv(w, dir, "events.csv", "events", events_body, files, err) < 0 ||
        write_csv(w, dir, "pubs.csv", "pubs", pubs_body, files, err) < 0 ||
        write_csv(w, dir, "notes.csv", NULL, notes_body, files, err) < 0 ||
        write_csv(w, dir, "stated_needs.csv", NULL, needs_body, files, err) < 0)
        return -1;
    return 0;
}

/* gpu-metrics.csv, listed last: it refers to jobs already imported. */
int demo_write_metrics(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err)
{
    return write_csv(w, dir, "gpu-metrics.csv", "gpu-metrics", metrics_body, files, err);
}
