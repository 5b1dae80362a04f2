#ifndef STORE_RESEARCH_H
#define STORE_RESEARCH_H
/* store_research: the SQL of who does what research (issue 18): papers
 * and their authors written by the publication importers (data/pubs*.c),
 * and read back with each author matched to a roster person through
 * core/names (name and aliases columns of the roster). Matching happens
 * when read, so a roster imported after the papers counts. Bound
 * parameters only. The compute side (profile runs, stated needs) is
 * store_research_prof.c. */

#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

/* One publication as an importer hands it over (strings borrowed). */
typedef struct PubRec {
    int year;
    const char *title, *venue, *keywords, *abstract, *bibkey; /* NULL when absent */
    const char *const *authors;  /* as written, LaTeX made plain */
    int nauthors;
    const char *source;          /* the file that lists it (its base name is kept), or NULL */
} PubRec;

typedef struct StorePubs StorePubs;

/* Statements for writing papers, inside the caller's transaction. NULL
 * with err on failure; caller frees with store_pubs_free before COMMIT. */
StorePubs *store_pubs_new(Store *st, CpErr *err);
/* Finalise the statements (NULL allowed). */
void store_pubs_free(StorePubs *sp);

/* Write one paper and its authors. A paper is its year, title and set of
 * authors (store_pubs_authors_key): the same title and year by other
 * authors is another paper. Returns 1 when added, 0 when that paper was
 * already there (its source is noted; an optional field it lacked is
 * filled, one it has settles on the smaller text, so the order of imports
 * changes nothing), -1 with err on a database error. */
int store_pubs_put(StorePubs *sp, int64_t import_id, const PubRec *p, CpErr *err);

/* The authors' name keys (core/names), sorted, duplicates dropped,
 * '|'-joined. Caller frees. */
char *store_pubs_authors_key(const char *const *authors, int n);

/* What the database holds, matched. */
typedef struct RsPerson {
    char *user, *group, *role, *name; /* name NULL when the roster has none */
    int y0, y1;       /* years on the roster: start, end (9999 when open) */
} RsPerson;

typedef struct RsPaper {
    int year;
    char *title;
    char *text;      /* title, keywords and abstract, for the terms */
    int nauthors;
    int *person;     /* nauthors: roster person index, -1 when unmatched */
} RsPaper;

typedef struct RsUnmatched {
    char *name;      /* the first spelling seen */
    int papers;      /* papers it is an author of */
} RsUnmatched;

typedef struct ResearchData {
    RsPerson *people;          /* one per user (latest roster row), by user */
    int npeople;
    RsPaper *papers;           /* year >= since, by id */
    int npapers;
    RsUnmatched *unmatched;    /* by papers descending, then name */
    int nunmatched;
    RsUnmatched *ambiguous;    /* names several roster people share and nothing
                                  told apart, by papers descending, then name */
    int nambiguous;
    int64_t slots, matched;    /* author slots, and those matched */
    int64_t slots_ambiguous;   /* slots of ambiguous names */
    int papers_matched;        /* papers with at least one roster author */
    int rows_merged;           /* stored rows merged into another (one paper
                                  listed with other spellings of its authors) */
} ResearchData;

/* Read people and the papers of year >= since, matching authors. Rows of
 * one year and title that share an author are one paper, with the union
 * of their authors (each once); rows that share none are several papers.
 * A name several people share is theirs by the group whose file lists
 * the paper (paper_sources: "pubs-GROUP.bib" or "GROUP.bib"), else by a
 * matched co-author's group, else by who was on the roster in the paper's
 * year (or the year after), else listed as ambiguous. Papers in the order
 * of their content (year, title, authors), so the order of the imports
 * changes nothing. Returns 0, or -1 with err. out owns everything:
 * store_research_done. */
int store_research_load(Store *st, int since, ResearchData *out, CpErr *err);
/* Free d's contents; d is zeroed. */
void store_research_done(ResearchData *d);

/* The latest compute profile run (`capplan profile`): its profiles'
 * names (chosen, else generated) and each member's profile and GPU-hours
 * in its window. found 0 when there is no run. */
typedef struct RsMember {
    char *user;
    int profile;       /* -1: too little history */
    double gpu_hours;
    double conc_mean;  /* mean concurrent GPU-eq (the features' conc_mean) */
    double gpus_p90;   /* GPUs a job */
    double mem_gib;    /* peak GPU memory, < 0 unknown */
} RsMember;

typedef struct RsProfiles {
    int found, k;
    char **name;       /* k */
    RsMember *members;
    int nmembers;
} RsProfiles;

int store_research_profiles(Store *st, RsProfiles *out, CpErr *err);

/* user's latest stated full-time GPUs (stated_needs): 1 and the value,
 * its date (YYYY-MM-DD) and group filled, 0 when none, -1 with err. */
int store_research_stated(Store *st, const char *user, double *gpus, char *date, size_t ndate,
                          char *group, size_t ngroup, CpErr *err);
void store_research_profiles_done(RsProfiles *p);

#endif
