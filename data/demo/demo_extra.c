/* demo_extra: what is not accounting. Publications per group and year
 * (Poisson, with the field's papers per researcher-year; titles from
 * domain word lists; the professor and one to three members as authors),
 * and the planning meetings of the last two months: one group per domain,
 * a note or two per meeting, and two or three students' stated needs, some
 * close to what they used over the last year and some not (a student who
 * asks for several GPUs full-time while using a fraction of one, another
 * who plays down the bursts of a sweep), so that the mismatches show. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/demo/demo_model.h"

/* ---- publications ---- */

typedef struct TitleWords {
    const char *a[6], *b[6], *link, *c[6];
} TitleWords;

static const TitleWords title_words[DEMO_NDOMAINS] = {
    {{"Scalable", "Robust", "Efficient", "Provable", "Sparse", "Bayesian"},
     {"Optimisation", "Transformers", "Graph Networks", "Diffusion Models", "Kernel Methods",
      "Representation Learning"},
     "for",
     {"Non-Convex Problems", "Tabular Data", "Continual Learning", "Few-Shot Learning",
      "Time Series", "Federated Settings"}},
    {{"Self-Supervised", "Real-Time", "3D", "Video", "Neural", "Open-Vocabulary"},
     {"Segmentation", "Scene Reconstruction", "Object Detection", "Pose Estimation",
      "Radiance Fields", "Tracking"},
     "for",
     {"Autonomous Driving", "Medical Imaging", "Satellite Imagery", "Robotics", "Microscopy",
      "Sports Analytics"}},
    {{"Multilingual", "Instruction-Tuned", "Long-Context", "Low-Resource",
      "Retrieval-Augmented", "Small"},
     {"Language Models", "Machine Translation", "Speech Recognition", "Summarisation",
      "Question Answering", "Parsing"},
     "for",
     {"Scientific Text", "Dialogue", "Legal Documents", "African Languages", "Code",
      "Clinical Notes"}},
    {{"Deep", "Single-Cell", "Structure-Based", "Genome-Wide", "Protein", "Generative"},
     {"Sequence Models", "Variant Calling", "Docking", "Expression Atlases", "Folding",
      "Phylogenetics"},
     "for",
     {"Rare Diseases", "Drug Discovery", "Plant Genomics", "Microbiomes", "Cancer Cohorts",
      "Antibiotic Resistance"}},
    {{"Machine-Learned", "Ab Initio", "Quantum", "Lattice", "Equivariant", "Multiscale"},
     {"Potentials", "Monte Carlo", "Molecular Dynamics", "Spectroscopy", "Simulations",
      "Surrogates"},
     "of",
     {"Battery Materials", "Catalysts", "Dark Matter Halos", "Superconductors",
      "Plasma Turbulence", "Nuclear Matter"}},
    {{"Kilometre-Scale", "Data-Driven", "Probabilistic", "Coupled", "Neural", "Ensemble"},
     {"Weather Forecasting", "Climate Emulators", "Ocean Models", "Downscaling",
      "Flood Prediction", "Wildfire Models"},
     "for",
     {"the Arctic", "Monsoon Regions", "Alpine Catchments", "Coastal Cities", "Sea Ice",
      "Drylands"}},
};

static void make_title(DemoRng *r, int domain, char *out, size_t cap)
{
    const TitleWords *t = &title_words[domain];
    snprintf(out, cap, "%s %s %s %s", t->a[demo_rng_below(r, 6)], t->b[demo_rng_below(r, 6)],
             t->link, t->c[demo_rng_below(r, 6)]);
}

static int active_in(const DemoPerson *p, int64_t lo, int64_t hi)
{
    return p->start < hi && (p->end == DEMO_NEVER || p->end > lo);
}

static DemoPub *new_pub(DemoWorld *w)
{
    if (w->npubs == w->cappubs) {
        w->cappubs = w->cappubs ? w->cappubs * 2 : 256;
        w->pubs = xrealloc(w->pubs, (size_t)w->cappubs * sizeof *w->pubs);
    }
    DemoPub *p = &w->pubs[w->npubs++];
    memset(p, 0, sizeof *p);
    return p;
}

static int title_taken(const DemoWorld *w, int from, const char *title)
{
    for (int i = from; i < w->npubs; i++)
        if (strcmp(w->pubs[i].title, title) == 0)
            return 1;
    return 0;
}

/* "A. Chen; J. Moreau": up to three members active that year, then the
 * professor last. */
static void make_authors(DemoWorld *w, DemoRng *r, int g, const int *members, int n, char *out,
                         size_t cap)
{
    size_t len = 0;
    int k = n ? 1 + (int)demo_rng_below(r, n < 3 ? n : 3) : 0;
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        const DemoPerson *p = &w->people[members[demo_rng_below(r, n)]];
        len += (size_t)snprintf(out + len, cap - len, "%c. %s; ", p->first[0], p->last);
        if (len >= cap)
            return;
    }
    const DemoPerson *prof = &w->people[w->groups[g].prof];
    snprintf(out + len, cap - len, "%c. %s", prof->first[0], prof->last);
}

static void group_year_pubs(DemoWorld *w, DemoRng *r, int g, int y, int *members)
{
    int64_t lo = demo_date(y, 1, 1), hi = demo_date(y + 1, 1, 1);
    if (lo < w->t0)
        lo = w->t0;
    if (hi > w->today)
        hi = w->today;
    if (hi <= lo)
        return;
    int n = 0;
    for (int i = 0; i < w->npeople; i++)
        if (w->people[i].group == g && w->people[i].role != DEMO_ROLE_PROFESSOR &&
            active_in(&w->people[i], lo, hi))
            members[n++] = i;
    double frac = (double)(hi - lo) / (365.25 * DEMO_DAY);
    int npubs = demo_rng_poisson(r, demo_domains[w->groups[g].domain].pubs_per_head * n * frac);
    int first = w->npubs;
    for (int k = 0; k < npubs; k++) {
        char title[112];
        make_title(r, w->groups[g].domain, title, sizeof title);
        for (int tries = 0; tries < 8 && title_taken(w, first, title); tries++)
            make_title(r, w->groups[g].domain, title, sizeof title);
        if (title_taken(w, first, title))
            continue;
        DemoPub *p = new_pub(w);
        p->year = y;
        p->group = g;
        snprintf(p->title, sizeof p->title, "%s", title);
        make_authors(w, r, g, members, n, p->authors, sizeof p->authors);
    }
}

static void make_pubs(DemoWorld *w)
{
    DemoRng r;
    demo_rng_seed(&r, w->o->seed, 11);
    int y0, yt, m, d;
    demo_ymd(w->t0, &y0, &m, &d);
    demo_ymd(w->today, &yt, &m, &d);
    int *members = xmalloc((size_t)(w->npeople ? w->npeople : 1) * sizeof *members);
    for (int g = 0; g < w->ngroups; g++)
        for (int y = y0; y <= yt; y++)
            group_year_pubs(w, &r, g, y, members);
    free(members);
}

/* ---- what the accounting shows for a member over the last year ---- */

typedef struct Measured {
    double gpu_s;       /* GPU-seconds in the window */
    double peak_mem;    /* GiB */
    double hours_sum;   /* GPU jobs' run hours */
    int gpu_jobs;
    int bursts;         /* HPO arrays submitted */
    double burst_tasks;
} Measured;

static double overlap(int64_t a, int64_t b, int64_t lo, int64_t hi)
{
    int64_t s = a > lo ? a : lo, e = b < hi ? b : hi;
    return e > s ? (double)(e - s) : 0.0;
}

static void measure_job(const DemoWorld *w, const DemoJob *j, int64_t lo, Measured *m)
{
    int64_t end = j->end < w->today ? j->end : w->today;
    if (j->start != DEMO_NEVER)
        m->gpu_s += j->gpus * overlap(j->start, end, lo, w->today);
    for (int32_t a = j->first_att; a >= 0; a = w->att[a].next)
        m->gpu_s += j->gpus * overlap(w->att[a].start, w->att[a].end, lo, w->today);
    if (j->start == DEMO_NEVER || j->start < lo || !j->gpus)
        return;
    m->gpu_jobs++;
    m->hours_sum += (double)(end - j->start) / DEMO_HOUR;
    if (j->gpu_mem > m->peak_mem)
        m->peak_mem = j->gpu_mem;
    if (j->pattern == DEMO_PAT_HPO && j->array_task == 0) {
        m->bursts++;
        m->burst_tasks += j->array_n;
    }
}

/* Members' measures over [today - 365 d, today), from the written jobs. */
static Measured *measure_all(const DemoWorld *w)
{
    Measured *m = xcalloc((size_t)(w->npeople ? w->npeople : 1), sizeof *m);
    int64_t lo = w->today - 365 * (int64_t)DEMO_DAY;
    for (size_t i = 0; i < w->norder; i++) {
        const DemoJob *j = &w->jobs[w->order[i]];
        measure_job(w, j, lo, &m[j->person]);
    }
    return m;
}

/* ---- meetings ---- */

static int mem_class(double gib)
{
    return gib <= 24 ? 24 : gib <= 48 ? 48 : 80;
}

static double round_tenth(double v)
{
    return floor(v * 10 + 0.5) / 10;
}

/* A student or postdoc who has been in the group for six months and is
 * still there: whom a meeting would invite. */
static int current_student(const DemoWorld *w, const DemoPerson *p)
{
    return (p->role == DEMO_ROLE_PHD || p->role == DEMO_ROLE_MSC || p->role == DEMO_ROLE_POSTDOC) &&
           p->start < w->today - 180 * DEMO_DAY && (p->end == DEMO_NEVER || p->end > w->today);
}

static int heads_now(const DemoWorld *w, int g)
{
    int n = 0;
    for (int i = 0; i < w->npeople; i++)
        if (w->people[i].group == g && current_student(w, &w->people[i]))
            n++;
    return n;
}

/* The group of domain d with the most current students. */
static int meeting_group(const DemoWorld *w, int d)
{
    int best = -1, best_n = -1;
    for (int g = 0; g < w->ngroups; g++) {
        int n = heads_now(w, g);
        if (w->groups[g].domain == d && n > best_n) {
            best = g;
            best_n = n;
        }
    }
    return best;
}

static DemoNeed *new_need(DemoWorld *w, int person, int64_t date, const Measured *m)
{
    w->needs = xrealloc(w->needs, (size_t)(w->nneeds + 1) * sizeof *w->needs);
    DemoNeed *n = &w->needs[w->nneeds++];
    memset(n, 0, sizeof *n);
    n->person = person;
    n->date = date;
    n->measured_gpus = m->gpu_s / (365.0 * DEMO_DAY);
    n->typical_hours = m->gpu_jobs ? m->hours_sum / m->gpu_jobs : 0;
    n->mem_class_gib = mem_class(m->peak_mem);
    return n;
}

/* A student who asks for much more than they used. */
static void need_more(DemoWorld *w, DemoRng *r, int i, int64_t date, const Measured *m)
{
    DemoNeed *n = new_need(w, i, date, m);
    n->gpus_fulltime = fmax(2.0, round(n->measured_gpus * demo_rng_range(r, 3, 6)));
    n->mem_class_gib = 80;
    n->typical_hours = round(fmax(24, n->typical_hours * 3));
    snprintf(n->text, sizeof n->text,
             "Needs %g GPUs of the 80 GB class full-time for bigger models next year; "
             "jobs of about %g h.",
             n->gpus_fulltime, n->typical_hours);
}

/* A student whose statement matches the accounting. */
static void need_matching(DemoWorld *w, int i, int64_t date, const Measured *m)
{
    DemoNeed *n = new_need(w, i, date, m);
    n->gpus_fulltime = fmax(0.1, round_tenth(n->measured_gpus));
    n->typical_hours = round_tenth(n->typical_hours);
    snprintf(n->text, sizeof n->text,
             "About %g GPU%s full-time, %d GB is enough; current use is representative.",
             n->gpus_fulltime, n->gpus_fulltime == 1 ? "" : "s", n->mem_class_gib);
}

/* A student who plays down their exploration bursts. */
static void need_fewer_bursts(DemoWorld *w, int i, int64_t date, const Measured *m)
{
    DemoNeed *n = new_need(w, i, date, m);
    n->gpus_fulltime = fmax(0.1, round_tenth(n->measured_gpus));
    n->typical_hours = round_tenth(n->typical_hours);
    n->burst_per_month = 1;
    n->burst_gpus = 4;
    n->burst_hours = 6;
    double measured_bursts = m->bursts / 12.0;
    snprintf(n->text, sizeof n->text,
             "Only an occasional small sweep (about one a month on 4 GPUs); measured %.1f "
             "bursts a month of %.0f jobs.",
             measured_bursts, m->bursts ? m->burst_tasks / m->bursts : 0.0);
}

static void add_note(DemoWorld *w, int g, int person, int64_t date, const char *text)
{
    w->notes = xrealloc(w->notes, (size_t)(w->nnotes + 1) * sizeof *w->notes);
    DemoNote *n = &w->notes[w->nnotes++];
    n->group = g;
    n->person = person;
    n->date = date;
    snprintf(n->text, sizeof n->text, "%s", text);
}

/* The current student of g with GPU use not yet in taken[0..n), with the
 * most GPU-seconds (by_bursts 0) or the most HPO bursts (1); -1 if none. */
static int best_student(const DemoWorld *w, const Measured *m, int g, const int *taken, int n,
                        int by_bursts)
{
    int best = -1;
    for (int i = 0; i < w->npeople; i++) {
        const DemoPerson *p = &w->people[i];
        int seen = 0;
        for (int q = 0; q < n; q++)
            seen |= taken[q] == i;
        if (seen || p->group != g || !current_student(w, p) || m[i].gpu_jobs < 3 ||
            (by_bursts && m[i].bursts == 0))
            continue;
        double v = by_bursts ? m[i].bursts : m[i].gpu_s;
        double b = best < 0 ? -1 : by_bursts ? m[best].bursts : m[best].gpu_s;
        if (v > b)
            best = i;
    }
    return best;
}

/* Whom the group brings: its heaviest GPU user, its heaviest sweeper (if
 * anyone sweeps), and the next heaviest user. Returns how many. */
static int pick_students(const DemoWorld *w, const Measured *m, int g, int *out)
{
    int n = 0;
    for (int k = 0; k < 3; k++) {
        int i = best_student(w, m, g, out, n, k == 1);
        if (i < 0 && k == 1)
            i = best_student(w, m, g, out, n, 0);
        if (i >= 0)
            out[n++] = i;
    }
    return n;
}

static void meeting(DemoWorld *w, DemoRng *r, const Measured *m, int g, int64_t date)
{
    const DemoPerson *prof = &w->people[w->groups[g].prof];
    int st[3];
    int n = pick_students(w, m, g, st);
    char text[320];
    int newcomers = 1 + (int)demo_rng_below(r, 3);
    snprintf(text, sizeof text,
             "Meeting with Prof. %s and %d students. Expects %d new PhD student%s next "
             "September; the preemptible partition is fine for sweeps.",
             prof->last, n, newcomers, newcomers == 1 ? "" : "s");
    add_note(w, g, w->groups[g].prof, date, text);
    for (int k = 0; k < n; k++) {
        if (k == 0)
            need_more(w, r, st[k], date, &m[st[k]]);
        else if (m[st[k]].bursts >= 3)
            need_fewer_bursts(w, st[k], date, &m[st[k]]);
        else
            need_matching(w, st[k], date, &m[st[k]]);
    }
    if (w->groups[g].idle) {
        snprintf(text, sizeof text,
                 "Notebook sessions hold GPUs for days with little use; agreed to try "
                 "shorter interactive limits.");
        add_note(w, g, -1, date, text);
    }
}

static void make_meetings(DemoWorld *w)
{
    DemoRng r;
    demo_rng_seed(&r, w->o->seed, 12);
    Measured *m = measure_all(w);
    for (int d = 0; d < DEMO_NDOMAINS; d++) {
        int g = meeting_group(w, d);
        if (g < 0)
            continue;
        int64_t date = w->today - (int64_t)(10 + 9 * d + demo_rng_below(&r, 5)) * DEMO_DAY;
        meeting(w, &r, m, g, date);
    }
    free(m);
}

void demo_extras(DemoWorld *w)
{
    make_pubs(w);
    make_meetings(w);
}
