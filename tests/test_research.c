/* Who does what research (issue 18): name normalisation and matching, the
 * terms dictionary, TF-IDF, ARI and NMI (expected values computed with
 * scikit-learn 1.2: TfidfTransformer, adjusted_rand_score,
 * normalized_mutual_info_score), clustering, the BibTeX and CSV importers
 * with their bad entries, and the two real lab publication lists of
 * shared/data/bibtex-lab-publications (aidos-lab.bib and mainlp.bib, with
 * their rosters; see its SOURCE.md). The real-data figures were counted
 * with an independent python3 matcher (unicodedata NFKD) over the authors
 * btparse stored, and agree with SOURCE.md's hand-checked ground truth:
 * 19 + 23 roster people match exactly; Víctor Toscano Durán (written
 * Toscano-Duran) and Soh-Eun (Ryan) Shim (written Shim, Ryan Soh-Eun)
 * match here too, hyphens counting as spaces and a nickname in
 * parentheses as a given name. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/names.h"
#include "core/profiles.h"
#include "core/research.h"
#include "core/research_demand.h"
#include "core/research_terms.h"
#include "core/tfidf.h"
#include "data/ingest/import.h"
#include "data/ingest/pubs.h"
#include "data/plan/research_run.h"
#include "data/store/store.h"
#include "data/store/store_research.h"
#include "data/ingest/textenc.h"
#include "tests/lib/testdb.h"
#include "tests/lib/testutil.h"

#define LABS "data/bibtex-lab-publications/"

/* ---- names ---- */

static void key_is(const char *name, const char *want)
{
    char *k = names_key(name);
    assert_string_equal(k, want);
    free(k);
}

static void test_names_key(void **state)
{
    (void)state;
    key_is("Kr{\\\"o}mker, Susanne", "susanne kromker");
    key_is("Luk{\\'a}cov{\\'a}-Medvidov{\\'a}, M{\\'a}ria", "maria lukacova medvidova");
    key_is("{van der Goot}, Rob", "rob van der goot");
    key_is("Zarrie{\\ss}, Sina", "sina zarriess");
    key_is("L\xc3\xbctfi Kerem \xc5\x9e" "enel", "lutfi kerem senel");
    key_is("J\xc4\x81nis Lazovskis", "janis lazovskis");
    key_is("S{\\o}gaard, Anders", "anders sogaard");
    key_is("H{\\\"o}ckendorf,   Jan", "jan hockendorf");
    key_is("\\'{E}mile Zola", "emile zola");
    key_is("King, Jr, Martin Luther", "martin luther king");
    key_is("Bastian~Rieck", "bastian rieck");
}

static void test_names_text(void **state)
{
    (void)state;
    char *t = names_text("{W}asserstein {W}eisfeiler--{L}ehman {G}raph {K}ernels");
    assert_string_equal(t, "Wasserstein Weisfeiler--Lehman Graph Kernels");
    free(t);
    t = names_text("Kr{\\\"o}mker and \\emph{deep}  $k$-means \\& co");
    assert_string_equal(t, "Kr\xc3\xb6mker and deep k-means & co");
    free(t);
    t = names_text("Dvo{\\v{r}}{\\'a}k");
    assert_string_equal(t, "Dvo\xc5\x99\xc3\xa1k");
    free(t);
}

static void test_names_index(void **state)
{
    (void)state;
    NamesIndex *ix = names_index_new();
    names_index_add(ix, "Jeremy Wayland", 0);
    names_index_add(ix, "Michael A. Hedderich", 1);
    names_index_add(ix, "Soh-Eun (Ryan) Shim", 2);
    names_index_add(ix, "Rob van der Goot", 3);
    names_index_add(ix, "Anna Chen", 4);
    names_index_add(ix, "Alex Chen", 5);
    names_index_add(ix, "Víctor Toscano Durán", 6);
    assert_int_equal(names_index_match(ix, "Wayland, Jeremy"), 0);
    assert_int_equal(names_index_match(ix, "Wayland, Stuart"), -1); /* surname alone: no */
    assert_int_equal(names_index_match(ix, "J. Wayland"), 0);
    assert_int_equal(names_index_match(ix, "Wayland, J."), 0);
    assert_int_equal(names_index_match(ix, "Hedderich, Michael"), 1);
    assert_int_equal(names_index_match(ix, "Hedderich, Michael A."), 1);
    assert_int_equal(names_index_match(ix, "Shim, Ryan Soh-Eun"), 2);
    assert_int_equal(names_index_match(ix, "Soh-Eun Shim"), 2);
    assert_int_equal(names_index_match(ix, "Goot, Rob"), 3);
    assert_int_equal(names_index_match(ix, "Chen, Anna"), 4);
    assert_int_equal(names_index_match(ix, "A. Chen"), -1); /* two people: no one */
    assert_int_equal(names_index_match(ix, "Victor Toscano-Duran"), 6);
    assert_int_equal(names_index_match(ix, "Rieck"), -1);
    names_index_free(ix);
}

/* ---- terms, TF-IDF, agreement ---- */

static int term_index(const Terms *t, const char *label)
{
    for (size_t i = 0; i < terms_count(t); i++)
        if (strcmp(terms_label(t, i), label) == 0)
            return (int)i;
    return -1;
}

static void test_terms_scan(void **state)
{
    (void)state;
    Terms *t = terms_new();
    terms_load_builtin(t);
    assert_int_equal(terms_count(t), 72); /* data/terms.txt: 72 term lines */
    unsigned char *hits = calloc(terms_count(t), 1);
    int n = terms_scan(t, "Scaling LLMs with LoRA on ImageNet-1k\nGraph Neural Networks", hits);
    assert_int_equal(n, 5);
    assert_true(hits[term_index(t, "large language model")]);
    assert_true(hits[term_index(t, "llm fine-tuning")]);
    assert_true(hits[term_index(t, "imagenet")]);
    assert_true(hits[term_index(t, "gnn")]);
    assert_true(hits[term_index(t, "graph learning")]);
    assert_false(hits[term_index(t, "cnn")]);
    /* ambiguous single words only as phrases (issue 32) */
    memset(hits, 0, terms_count(t));
    terms_scan(t, "Neural Persistence: A Complexity Measure for Deep Neural Networks\n"
                  "Revisiting Active Learning under (Human) Label Variation\n"
                  "Topological Inductive Bias fosters Multiple Instance Learning", hits);
    assert_false(hits[term_index(t, "graph learning")]);
    assert_false(hits[term_index(t, "dialects")]);
    assert_false(hits[term_index(t, "fairness")]);
    assert_true(hits[term_index(t, "annotation")]);
    memset(hits, 0, terms_count(t));
    terms_scan(t, "Building Dialect Variation Dictionaries; gender bias in social networks", hits);
    assert_true(hits[term_index(t, "dialects")] && hits[term_index(t, "fairness")] &&
                hits[term_index(t, "graph learning")]);
    CpErr err = {""};
    assert_int_equal(terms_load(t, "# site\nmodel | mamba | state space model\n", "site.txt",
                                &err), 0);
    assert_int_equal(terms_count(t), 73);
    free(hits);
    hits = calloc(terms_count(t), 1);
    assert_int_equal(terms_scan(t, "State-space models for audio", hits), 2);
    assert_true(hits[term_index(t, "mamba")] && hits[term_index(t, "speech")]);
    assert_int_equal(terms_load(t, "model | x\n", "site.txt", &err), -1);
    assert_string_equal(err.msg, "site.txt:1: expected 'category | label | synonyms'");
    free(hits);
    terms_free(t);
}

static void test_tfidf_sklearn(void **state)
{
    (void)state;
    double tf[16] = {3, 0, 1, 0, 0, 2, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0}, out[16], idf[4];
    tfidf_transform(tf, 4, 4, out, idf);
    static const double want_idf[4] = {1.51082562, 1.51082562, 1.51082562, 1.91629073};
    static const double want[16] = {0.9486833,  0, 0.31622777, 0,          0,          1,
                                    0,          0, 0.46580855, 0.46580855, 0.46580855, 0.59081908,
                                    0,          0, 0,          0};
    for (int j = 0; j < 4; j++)
        assert_float_equal(idf[j], want_idf[j], 1e-8);
    for (int i = 0; i < 16; i++)
        assert_float_equal(out[i], want[i], 1e-8);
}

static void test_ari_nmi_sklearn(void **state)
{
    (void)state;
    int a[10] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 2}, b[10] = {0, 0, 1, 1, 1, 2, 2, 2, 0, 0};
    assert_float_equal(research_ari(a, b, 10), 0.090909090909091, 1e-12);
    assert_float_equal(research_nmi(a, b, 10), 0.394648371635894, 1e-12);
    assert_float_equal(research_ari(a, a, 10), 1.0, 1e-12);
    assert_float_equal(research_nmi(a, a, 10), 1.0, 1e-12);
    int c[4] = {0, 1, 2, 3}, d[4] = {0, 0, 0, 0};
    assert_float_equal(research_ari(c, d, 4), 0.0, 1e-12);
    assert_float_equal(research_nmi(c, d, 4), 0.0, 1e-12);
}

static void test_clusters(void **state)
{
    (void)state;
    /* 9 people on three term axes (unit rows) and one with no terms. */
    double x[10 * 3] = {0};
    for (int i = 0; i < 9; i++) {
        x[i * 3 + i / 3] = 0.95;
        x[i * 3 + (i / 3 + 1) % 3] = 0.05 * (i % 3);
    }
    ResearchClusters c;
    research_kmeans(x, 10, 3, 0, 1, &c);
    assert_int_equal(c.k, 3);
    assert_int_equal(c.labels[9], -1);
    for (int i = 0; i < 9; i++)
        assert_int_equal(c.labels[i], c.labels[(i / 3) * 3]);
    assert_int_not_equal(c.labels[0], c.labels[3]);
    research_name(&c, x, 3);
    assert_int_equal(c.top[c.labels[3] * RESEARCH_TOP], 1);
    research_clusters_done(&c);
    /* Two triangles joined by one weak edge; person 6 alone, 7 inactive. */
    int ea[7] = {0, 0, 1, 3, 3, 4, 2}, eb[7] = {1, 2, 2, 4, 5, 5, 3};
    double ew[7] = {2, 2, 2, 2, 2, 2, 1};
    unsigned char active[8] = {1, 1, 1, 1, 1, 1, 1, 0};
    research_coauthor(8, ea, eb, ew, 7, active, &c);
    assert_int_equal(c.k, 3);
    assert_int_equal(c.labels[0], c.labels[2]);
    assert_int_equal(c.labels[3], c.labels[5]);
    assert_int_not_equal(c.labels[0], c.labels[3]);
    assert_int_equal(c.labels[6], 2);
    assert_int_equal(c.labels[7], -1);
    research_clusters_done(&c);
}

static void test_compare(void **state)
{
    (void)state;
    /* cluster 0: profiles 1,1,1,0 -> usual 1, person 3 asked; cluster 1:
     * two people only -> never asked; person 6 no profile. */
    int r[7] = {0, 0, 0, 0, 1, 1, 0}, p[7] = {1, 1, 1, 0, 0, 1, -1};
    ResearchCompare c;
    research_compare(r, p, 7, 2, 2, &c);
    assert_int_equal(c.both, 6);
    assert_int_equal(c.usual[0], 1);
    assert_float_equal(c.usual_share[0], 0.75, 1e-12);
    assert_int_equal(c.table[0 * 2 + 1], 3);
    assert_int_equal(c.firm[1], 0);
    int asked = 0;
    for (int i = 0; i < 7; i++)
        asked += c.ask[i] * (i + 1);
    assert_int_equal(asked, 4); /* person 3 alone */
    research_compare_done(&c);
}

/* ---- importers ---- */

static int import_pubs(TuDb *d, const char *path, int strict, ImportResult *res, CpErr *err)
{
    ImportOpts o;
    tu_db_opts(d, &o, strict);
    return pubs_import(d->st, path, &o, res, err);
}

static int64_t q(TuDb *d, const char *sql)
{
    return store_scalar(d->st, sql);
}

/* A temporary file holding text with the given suffix; caller unlinks and frees. */
static char *write_file(const char *suffix, const char *text)
{
    char *p = tu_temp_path(suffix);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static const char bad_bib[] =
    "% a comment line\n"
    "@article{good1,\n  author = {Rieck, Bastian and Jeremy Wayland},\n"
    "  title = {{T}opology of {GNN}s}, year = 2023, month = nov,\n"
    "  keywords = {TDA, Graphs}\n}\n"
    "@article{noyear,\n  author = {A. B},\n  title = {No year}\n}\n"
    "@article{badyear,\n  author = {A. B},\n  title = {Bad year},\n  year = {20x3}\n}\n"
    "@misc{noauthor,\n  title = {Nobody}, year = 2020\n}\n"
    "@article{broken,\n  author = {A. B}\n  title = {missing comma}, year = 2020\n}\n"
    "@inproceedings{good2,\n  author = {Wayland, Jeremy and others},\n"
    "  title = {Second}, year = {2024}, booktitle = {NeurIPS}\n}\n";

static void test_bib_bad_entries(void **state)
{
    TuDb *d = *state;
    char *path = write_file(".bib", bad_bib);
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_pubs(d, path, 0, &res, &err), 0);
    assert_string_equal(res.format, "bibtex");
    assert_int_equal(res.rows_read, 6);
    assert_int_equal(res.added, 2);
    assert_int_equal(res.rejected, 4);
    assert_int_equal(d->rejected, 4);
    assert_int_equal(q(d, "SELECT count(*) FROM papers"), 2);
    assert_int_equal(q(d, "SELECT count(*) FROM paper_authors"), 3); /* "others" left out */
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE title = 'Topology of GNNs' AND "
                          "keywords = 'TDA, Graphs' AND year = 2023"), 1);
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE venue = 'NeurIPS'"), 1);
    /* the last bad one: the entry with a missing comma, at its line */
    char want[CP_ERR_MAX];
    snprintf(want, sizeof want, "%s:19: field entry broken: syntax error", path);
    assert_memory_equal(d->last_reject, want, strlen(want));
    /* again: nothing added */
    d->rejected = 0;
    assert_int_equal(import_pubs(d, path, 0, &res, &err), 0);
    assert_int_equal(res.added, 0);
    assert_int_equal(res.unchanged, 2);
    /* strict: the first bad entry rejects the file, the database as it was */
    char *path2 = write_file(".bib", "@article{a, author={X Y}, title={New}, year=2021}\n"
                                     "@article{b, author={X Y}, title={Bad}, year=1821}\n");
    assert_int_equal(import_pubs(d, path2, 1, &res, &err), -1);
    snprintf(want, sizeof want, "%s:2: field year: bad year '1821'", path2);
    assert_string_equal(err.msg, want);
    assert_int_equal(q(d, "SELECT count(*) FROM papers"), 2);
    unlink(path);
    unlink(path2);
    free(path);
    free(path2);
}

static void test_bib_field_errors(void **state)
{
    TuDb *d = *state;
    char *path = write_file(".bib", "@article{n, author = {A B},\n  title = {T}}\n"
                                    "@article{m,\n  title = {T2},\n  year = {2020},\n}\n");
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_pubs(d, path, 0, &res, &err), 0);
    assert_int_equal(res.rejected, 2);
    char want[CP_ERR_MAX];
    snprintf(want, sizeof want, "%s:3: field author: missing", path);
    assert_string_equal(d->last_reject, want);
    unlink(path);
    free(path);
}

static void test_research_csv(void **state)
{
    TuDb *d = *state;
    char *path = write_file(".csv",
                            "year,title,authors,venue,keywords,abstract\n"
                            "2022,Diffusion for weather,Ana Silva; Ben Osei,ICML,diffusion,\"ERA5, "
                            "at scale\"\n"
                            "2023,LLM pretraining,Silva and Osei and Others X,,,\n"
                            "20x4,Bad,Ana Silva,,,\n"
                            "2024,No authors,,,,\n");
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_pubs(d, path, 0, &res, &err), 0);
    assert_string_equal(res.format, "pubs-research-csv");
    assert_int_equal(res.added, 2);
    assert_int_equal(res.rejected, 2);
    char want[CP_ERR_MAX];
    snprintf(want, sizeof want, "%s:5: field authors: empty value", path);
    assert_string_equal(d->last_reject, want);
    assert_int_equal(q(d, "SELECT count(*) FROM paper_authors"), 5);
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE abstract = 'ERA5, at scale'"), 1);
    /* the per-group layout still goes to the pubs table */
    char *old = write_file(".csv", "year,group,title,domain\n2024,lab-a,A title,ML\n");
    assert_int_equal(import_pubs(d, old, 0, &res, &err), 0);
    assert_int_equal(q(d, "SELECT count(*) FROM pubs"), 1);
    unlink(path);
    unlink(old);
    free(path);
    free(old);
}

/* A lab's publication list as older reference managers save it (JabRef
 * before 5.0 and BibDesk set to "ISO Latin 1": ISO-8859-1, accents as
 * single bytes, not LaTeX escapes), and a Windows export of the same
 * (Windows-1252: its dash is byte 0x96). Issue 14: stored as raw bytes
 * they made every --json output invalid. */
static const char latin1_bib[] = "@article{mueller2021,\n"
                                 "  author = {M\xfcller, J\xfcrgen and Ada Lovelace},\n"
                                 "  title = {\xdc" "ber Grafikprozessoren},\n"
                                 "  journal = {Zeitschrift f\xfcr Informatik}, year = 2021\n}\n"
                                 "@article{plain2020,\n  author = {Ada Lovelace},\n"
                                 "  title = {Plain}, year = 2020\n}\n";

static int import_pubs_enc(TuDb *d, const char *path, int strict, int enc, ImportResult *res,
                           CpErr *err)
{
    ImportOpts o;
    tu_db_opts(d, &o, strict);
    o.encoding = enc;
    return pubs_import(d->st, path, &o, res, err);
}

static void test_bib_encoding(void **state)
{
    TuDb *d = *state;
    char *path = write_file(".bib", latin1_bib);
    ImportResult res;
    CpErr err = {""};
    char want[512];
    /* UTF-8 expected: the entry is refused at its first bad field (line 2,
     * the author's 0xFC at byte 2), the ASCII one kept; --strict: nothing */
    assert_int_equal(import_pubs_enc(d, path, 1, TEXTENC_UTF8, &res, &err), -1);
    assert_int_equal(q(d, "SELECT count(*) FROM papers"), 0);
    assert_int_equal(import_pubs_enc(d, path, 0, TEXTENC_UTF8, &res, &err), 0);
    assert_int_equal(res.added, 1);
    assert_int_equal(res.rejected, 1);
    snprintf(want, sizeof want, "%s:2: field author: not UTF-8 (byte 0xFC at column 2)", path);
    assert_non_null(strstr(d->last_reject, want));
    assert_non_null(strstr(d->last_reject, "--encoding latin1 or cp1252"));
    /* --encoding latin1: both, as UTF-8 (python3: bytes.decode('latin-1')) */
    assert_int_equal(import_pubs_enc(d, path, 1, TEXTENC_LATIN1, &res, &err), 0);
    assert_int_equal(res.added, 1);
    assert_int_equal(res.unchanged, 1);
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE title = '\xc3\x9c" "ber "
                          "Grafikprozessoren' AND venue = 'Zeitschrift f\xc3\xbcr Informatik'"),
                     1);
    assert_int_equal(q(d, "SELECT count(*) FROM paper_authors WHERE name = "
                          "'M\xc3\xbcller, J\xc3\xbcrgen'"),
                     1);
    /* Windows-1252: 0x96 is an en dash (U+2013), 0x93/0x94 curly quotes */
    char *cp = write_file(".bib", "@article{w, author = {Ada Lovelace},\n"
                                  "  title = {\x93GPUs\x94 \x96 a study}, year = 2022}\n");
    assert_int_equal(import_pubs_enc(d, cp, 1, TEXTENC_CP1252, &res, &err), 0);
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE title = "
                          "'\xe2\x80\x9cGPUs\xe2\x80\x9d \xe2\x80\x93 a study'"),
                     1);
    assert_int_equal(q(d, "SELECT count(*) FROM papers"), 3);
    unlink(path);
    unlink(cp);
    free(path);
    free(cp);
}

static int matched_slots(const ResearchData *rd, const char *user);

/* The roster's name and aliases columns: an alias catches a spelling the
 * name does not (a second surname), and a roster imported after the
 * papers still counts. */
static void test_roster_aliases(void **state)
{
    TuDb *d = *state;
    char *bib = write_file(".bib", "@article{a, author = {Garc{\\'\\i}a-L{\\'o}pez, M. and "
                                   "Wei Xu and Someone Else}, title = {T}, year = 2023}\n");
    char *roster = write_file(".csv", "user,group,role,domain,start,end,name,aliases\n"
                                      "mgarcia,lab,phd-student,ML,2022-01-01,,Maria Garcia,"
                                      "Maria Garcia-Lopez;M. G. Lopez\n"
                                      "wxu,lab,phd-student,ML,2022-01-01,,Wei Xu,\n");
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_pubs(d, bib, 0, &res, &err), 0);
    assert_int_equal(import_csv(d->st, "roster", roster, NULL, &res, &err), 0);
    assert_int_equal(q(d, "SELECT count(*) FROM people WHERE aliases = "
                          "'Maria Garcia-Lopez;M. G. Lopez' AND name = 'Maria Garcia'"), 1);
    ResearchData rd;
    assert_int_equal(store_research_load(d->st, 0, &rd, &err), 0);
    assert_int_equal(rd.slots, 3);
    assert_int_equal(rd.matched, 2);
    assert_int_equal(matched_slots(&rd, "mgarcia"), 1);
    assert_int_equal(matched_slots(&rd, "wxu"), 1);
    assert_int_equal(rd.nunmatched, 1);
    assert_string_equal(rd.unmatched[0].name, "Someone Else");
    store_research_done(&rd);
    unlink(bib);
    unlink(roster);
    free(bib);
    free(roster);
}

/* The shared roster with its empty or year-only dates made full dates
 * (capplan's roster wants a start date), into a temporary file. */
static char *roster_copy(const char *rel)
{
    FILE *in = fopen(tu_shared(rel), "r");
    assert_non_null(in);
    char *p = tu_temp_path(".csv");
    FILE *out = fopen(p, "w");
    char line[1024];
    int first = 1;
    while (fgets(line, sizeof line, in)) {
        if (first) {
            fputs(line, out);
            first = 0;
            continue;
        }
        char *f[7];
        char *s = line;
        for (int i = 0; i < 7; i++) {
            f[i] = s;
            s = strchr(s, i < 6 ? ',' : '\n');
            if (s)
                *s++ = '\0';
            else
                s = f[i] + strlen(f[i]);
        }
        fprintf(out, "%s,%s,%s,%s,%s%s,%s%s,%s\n", f[0], f[1], f[2], f[3],
                *f[4] ? f[4] : "2018-01-01", strlen(f[4]) == 4 ? "-01-01" : "", f[5],
                strlen(f[5]) == 4 ? "-12-31" : "", f[6]);
    }
    fclose(in);
    fclose(out);
    return p;
}

static void import_lab(TuDb *d, const char *lab)
{
    char rel[128];
    snprintf(rel, sizeof rel, LABS "%s-roster.csv", lab);
    char *roster = roster_copy(rel);
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_csv(d->st, "roster", roster, NULL, &res, &err), 0);
    assert_int_equal(res.rejected, 0);
    snprintf(rel, sizeof rel, LABS "%s.bib", lab);
    assert_int_equal(import_pubs(d, tu_shared(rel), 0, &res, &err), 0);
    assert_int_equal(res.rejected, 0);
    unlink(roster);
    free(roster);
}

static int matched_slots(const ResearchData *rd, const char *user)
{
    int n = 0;
    for (int i = 0; i < rd->npapers; i++)
        for (int a = 0; a < rd->papers[i].nauthors; a++)
            n += rd->papers[i].person[a] >= 0 &&
                 strcmp(rd->people[rd->papers[i].person[a]].user, user) == 0;
    return n;
}

/* ---- hidden demand (issue 32) ---- */

/* Cluster 0: a 70B line, 80 GB class and 4 GPUs a job by most GPU-hours
 * and most members; cluster 1: no firm class (half 24, half 80 GB) and
 * single-GPU: nothing implied. Figures worked by hand below. */
static void test_hidden_demand(void **state)
{
    (void)state;
    /* cluster, group, GPU-h, GPU-eq a member, GPUs a job, memory */
    const RsNeedIn in[] = {
        {0, 0, 4000, 2.0, 4, 70}, /* peers: 80 GB, 4 GPUs */
        {0, 1, 3000, 1.0, 4, 60},
        {0, 2, 2000, 0.5, 8, 75},
        {0, 0, 500, 0.1, 1, 20},  /* 24 GB: below the class; stake max(1.0, 0.1) = 1.0 */
        {0, 0, 900, 1.5, 1, 78},  /* 80 GB, 1 GPU < 4/2: stake 1.0 - 1.5 < 0: not flagged */
        {0, 0, 600, 0.2, 1, 79},  /* 80 GB, 1 GPU: stake 1.0 - 0.2 = 0.8 */
        {0, 0, 50, 0.01, 1, 10},  /* under 100 GPU-h: not compared */
        {0, 1, 400, 0.3, 2, 40},  /* 48 GB: stake 1.0 */
        {1, 2, 1000, 0.4, 1, 20},
        {1, 2, 1000, 0.4, 1, 80},
        {1, 2, 1000, 0.1, 1, 20},
        {-1, 2, 5000, 3.0, 8, 80}, /* no research cluster */
    };
    int n = (int)(sizeof in / sizeof in[0]), shown;
    RsNeedOut out[12];
    ResearchNeed need[2];
    assert_int_equal(research_demand(in, n, 2, 100, 2, out, need, &shown), 3);
    /* cluster 0: 7 members of 100 GPU-h or more, 11,400 GPU-h; 80 GB holds
     * 10,500 of them (0.921) and 5 members of 7; >= 2 GPUs 9,400 (0.825) and
     * 4 members; the GPU-hour-weighted medians: 4 GPUs a job, GPU-eq 1.0
     * (sorted 0.1 .. 2.0, half of 11,400 reached at 1.0) */
    assert_int_equal(need[0].members, 7);
    assert_float_equal(need[0].hours, 11400, 1e-9);
    assert_int_equal(need[0].mem_class, MEMCLASS_80);
    assert_float_equal(need[0].mem_share, 10500.0 / 11400, 1e-12);
    assert_int_equal(need[0].multi, 1);
    assert_float_equal(need[0].gpus, 4, 0);
    assert_float_equal(need[0].conc, 1.0, 1e-12);
    assert_int_equal(need[0].below, 3);
    assert_float_equal(need[0].budget, 1.0 + 0.8 + 1.0, 1e-12);
    /* cluster 1: 24 GB holds 2,000 of 3,000 GPU-h (0.667) and 2 of 3
     * members: firm; no one in it runs below 24 GB: nobody flagged */
    assert_int_equal(need[1].mem_class, MEMCLASS_24);
    assert_int_equal(need[1].multi, 0);
    assert_int_equal(need[1].below, 0);
    assert_true(out[3].below_mem && out[3].stake == 1.0);
    assert_true(!out[4].below_mem && out[4].below_gpus && out[4].stake == 0);
    assert_true(out[5].below_gpus && fabs(out[5].stake - 0.8) < 1e-12);
    assert_true(out[6].stake == 0 && out[6].rank == 0);
    assert_true(out[7].below_mem && out[7].stake == 1.0);
    /* ranked by stake (ties: more GPU-hours), at most 2 a group: group 0
     * has 3 and 5, group 1 has 7 */
    assert_int_equal(shown, 3);
    assert_int_equal(out[3].rank, 1); /* 1.0, 500 GPU-h */
    assert_int_equal(out[7].rank, 2); /* 1.0, 400 GPU-h */
    assert_int_equal(out[5].rank, 3);
    /* no cap: the same */
    assert_int_equal(research_demand(in, n, 2, 100, 0, out, need, &shown), 3);
    assert_int_equal(shown, 3);
    /* a minimum of 0: the 50 GPU-h one is compared too (24 GB: below) */
    assert_int_equal(research_demand(in, n, 2, 0, 1, out, need, &shown), 4);
    assert_int_equal(shown, 2); /* one a group */
}

/* ---- real BibTeX (issue 32) ---- */

static const char crossref_bib[] =
    "@inproceedings{child1, author = {I. Mensah-Foss and R. van der Goot},\n"
    "  title = {Child paper}, crossref = {proc22}}\n"
    "@inproceedings{child2, author = {Goot, R. van der and Mensah-Foss, I.},\n"
    "  title = {Second child}, crossref = {PROC22}, keywords = {own}}\n"
    "@article{bl, author = {Ann Lee}, title = {Biblatex dated}, date = {2022-05-01},\n"
    "  journaltitle = {JMLR}}\n"
    "@article{bl2, author = {Ann Lee}, title = {Bad date}, date = {May 2022}}\n"
    "@proceedings{proc22, title = {Proceedings of ACL 2022}, year = 2022,\n"
    "  booktitle = {ACL 2022}, keywords = {parsing}}\n";

static void test_bib_real_world(void **state)
{
    TuDb *d = *state;
    char *roster = write_file(".csv", "user,group,role,domain,start,end,name\n"
                                      "imf,lab,phd-student,ML,2020-01-01,,Ines Mensah-Foss\n"
                                      "rvdg,lab,phd-student,ML,2020-01-01,,Rob van der Goot\n"
                                      "alee,lab,phd-student,ML,2020-01-01,,Ann Lee\n");
    char *bib = write_file(".bib", crossref_bib);
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_csv(d->st, "roster", roster, NULL, &res, &err), 0);
    assert_int_equal(import_pubs(d, bib, 0, &res, &err), 0);
    /* the two children (their parent after them), the dated article; the
     * proceedings volume is no paper; "May 2022" is no date */
    assert_int_equal(res.rows_read, 4);
    assert_int_equal(res.added, 3);
    assert_int_equal(res.rejected, 1);
    char want[CP_ERR_MAX];
    snprintf(want, sizeof want, "%s:7: field date: bad date 'May 2022'", bib);
    assert_memory_equal(d->last_reject, want, strlen(want));
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE year = 2022 AND venue = 'ACL 2022' "
                          "AND keywords = 'parsing'"), 1);
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE title = 'Second child' AND "
                          "keywords = 'own'"), 1);
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE year = 2022 AND venue = 'JMLR'"), 1);
    /* initials before a hyphenated or particle surname, in both orders */
    ResearchData rd;
    assert_int_equal(store_research_load(d->st, 0, &rd, &err), 0);
    assert_int_equal(rd.slots, 5);
    assert_int_equal(rd.matched, 5);
    assert_int_equal(matched_slots(&rd, "imf"), 2);
    assert_int_equal(matched_slots(&rd, "rvdg"), 2);
    store_research_done(&rd);
    /* refused with one line before btparse sees the text; the database as
     * it was */
    static const struct {
        const char *text;
        size_t n;
        const char *why;
    } bad[] = {
        {"", 0, ": empty file"},
        {" \n\n", 3, ": empty file"},
        {"hello world\n", 12, ": no BibTeX entry in it (an '@' starts each entry)"},
        {"@article{a, author = {X Y},\n title = {T\0x}, year = 2020}\n", 56,
         ":2: a NUL byte (not a text file?)"},
        {"@article{a,\n author = {X\xffY}}\n", 28, ":2: a byte FF, never in UTF-8 (--encoding latin1?)"},
        {"\xff\xfe@\0a\0", 6, ": UTF-16 text (byte order mark FF FE); capplan reads UTF-8: "
                              "convert it first (iconv -f UTF-16 -t UTF-8)"},
        {"@\0a\0r\0t\0", 8, ": UTF-16 text (NUL bytes between the letters, no byte order mark); "
                            "capplan reads UTF-8: convert it first (iconv -f UTF-16LE -t UTF-8)"},
    };
    int64_t before = q(d, "SELECT count(*) FROM papers");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *path = tu_temp_path(".bib");
        FILE *f = fopen(path, "wb");
        fwrite(bad[i].text, 1, bad[i].n, f);
        fclose(f);
        assert_int_equal(import_pubs(d, path, 0, &res, &err), -1);
        snprintf(want, sizeof want, "%s%s", path, bad[i].why);
        assert_string_equal(err.msg, want);
        unlink(path);
        free(path);
    }
    assert_int_equal(q(d, "SELECT count(*) FROM papers"), before);
    unlink(roster);
    unlink(bib);
    free(roster);
    free(bib);
}

/* ---- no paper lost (issue 32) ---- */

static const char lab_a_bib[] =
    "@article{p1, author = {Silva, Ana and Pat Bell}, title = {Same Title}, year = 2023}\n"
    "@article{p2, author = {A. Silva and Zed External}, title = {Solo}, year = 2022}\n";
static const char lab_b_bib[] =
    "@article{q1, author = {Qi Chen and Bo Wu}, title = {Same Title}, year = 2023}\n"
    "@article{q2, author = {Pat Bell and Silva, Ana and Qi Chen}, title = {Joint}, year = 2024,\n"
    "  journal = {JMLR}}\n";
static const char other_bib[] =
    "@article{r1, author = {Ana Silva and Qi Chen}, title = {Third}, year = 2021}\n"
    "@article{r2, author = {Ana Silva and Nobody Known}, title = {Fourth}, year = 2021}\n"
    "@article{r4, author = {Ana Silva and Nobody Known}, title = {Fifth}, year = 2023}\n"
    "@article{r3, author = {Pat Bell and Extra Person}, title = {Joint}, year = 2024,\n"
    "  journal = {A Journal}, abstract = {Found twice.}}\n";
/* the same entries, in the other order */
static const char lab_a_rev[] =
    "@article{p2, author = {A. Silva and Zed External}, title = {Solo}, year = 2022}\n"
    "@article{p1, author = {Silva, Ana and Pat Bell}, title = {Same Title}, year = 2023}\n";
static const char lab_b_rev[] =
    "@article{q2, author = {Pat Bell and Silva, Ana and Qi Chen}, title = {Joint}, year = 2024,\n"
    "  journal = {JMLR}}\n"
    "@article{q1, author = {Qi Chen and Bo Wu}, title = {Same Title}, year = 2023}\n";
static const char other_rev[] =
    "@article{r3, author = {Pat Bell and Extra Person}, title = {Joint}, year = 2024,\n"
    "  journal = {A Journal}, abstract = {Found twice.}}\n"
    "@article{r4, author = {Ana Silva and Nobody Known}, title = {Fifth}, year = 2023}\n"
    "@article{r2, author = {Ana Silva and Nobody Known}, title = {Fourth}, year = 2021}\n"
    "@article{r1, author = {Ana Silva and Qi Chen}, title = {Third}, year = 2021}\n";

/* Write text to dir/name; the path, caller frees. */
static char *write_named(const char *dir, const char *name, const char *text)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* What the database holds of papers, in an order of their content alone
 * (ids aside): each paper with its fields, its authors as written (sorted)
 * and its sources. Caller frees. */
static char *papers_dump(TuDb *d)
{
    sqlite3_stmt *s;
    assert_int_equal(
        sqlite3_prepare_v2(store_db(d->st),
                           "SELECT group_concat(x, char(10)) FROM (SELECT p.year || '|' || "
                           "p.title || '|' || p.authors_key || '|' || coalesce(p.venue, '') || "
                           "'|' || coalesce(p.keywords, '') || '|' || coalesce(p.abstract, '') "
                           "|| '|' || coalesce(p.bibkey, '') || '|' || (SELECT group_concat(n, "
                           "';') FROM (SELECT name AS n FROM paper_authors WHERE paper_id = p.id "
                           "ORDER BY name)) || '|' || (SELECT group_concat(source, ';') FROM "
                           "(SELECT source FROM paper_sources WHERE paper_id = p.id ORDER BY "
                           "source)) AS x FROM papers p ORDER BY x)",
                           -1, &s, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    const char *t = (const char *)sqlite3_column_text(s, 0);
    char *out = strdup(t ? t : "");
    sqlite3_finalize(s);
    return out;
}

static void test_no_paper_lost(void **state)
{
    TuDb *d = *state;
    char *dir = tu_temp_path(".d");
    assert_int_equal(mkdir(dir, 0700), 0);
    char *roster = write_named(dir, "roster.csv",
                               "user,group,role,domain,start,end,name\n"
                               "asilva,lab-a,phd-student,ML,2020-01-01,,Ana Silva\n"
                               "pbell,lab-a,phd-student,ML,2020-01-01,,Pat Bell\n"
                               "asilva2,lab-b,phd-student,ML,2022-01-01,,Ana Silva\n"
                               "qchen,lab-b,phd-student,ML,2020-01-01,,Qi Chen\n");
    const char *names[3] = {"pubs-lab-a.bib", "pubs-lab-b.bib", "other.bib"};
    const char *fwd[3] = {lab_a_bib, lab_b_bib, other_bib}, *rev[3] = {lab_a_rev, lab_b_rev, other_rev};
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_csv(d->st, "roster", roster, NULL, &res, &err), 0);
    char *dump[2];
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 3; i++) { /* pass 1: the files and their entries reversed */
            int f = pass ? 2 - i : i;
            char *path = write_named(dir, names[f], pass ? rev[f] : fwd[f]);
            assert_int_equal(import_pubs(d, path, 1, &res, &err), 0);
            unlink(path);
            free(path);
        }
        /* 8 entries, 8 rows: "Same Title" (2023) by other authors is two papers */
        assert_int_equal(q(d, "SELECT count(*) FROM papers"), 8);
        assert_int_equal(q(d, "SELECT count(*) FROM paper_authors"), 17);
        assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE title = 'Same Title'"), 2);
        ResearchData rd;
        assert_int_equal(store_research_load(d->st, 0, &rd, &err), 0);
        /* "Joint" (2024) listed twice with Pat Bell in both: one paper, the
         * union of the authors (Pat Bell once) */
        assert_int_equal(rd.npapers, 7);
        assert_int_equal(rd.rows_merged, 1);
        assert_int_equal(rd.slots, 16);
        assert_int_equal(rd.matched, 10);
        /* Ana Silva of lab-a by lab-a's file, of lab-b by lab-b's file
         * ("Joint") or her co-author Qi Chen ("Third"); in other.bib with no
         * roster co-author, of lab-a in 2021 (lab-b's started in 2022:
         * "Fourth"), while "Fifth" (2023, both there) stays ambiguous, not
         * unmatched */
        assert_int_equal(matched_slots(&rd, "asilva"), 3);
        assert_int_equal(matched_slots(&rd, "asilva2"), 2);
        assert_int_equal(matched_slots(&rd, "pbell"), 2);
        assert_int_equal(rd.slots_ambiguous, 1);
        assert_int_equal(rd.nambiguous, 1);
        assert_string_equal(rd.ambiguous[0].name, "Ana Silva");
        assert_int_equal(rd.nunmatched, 4);
        store_research_done(&rd);
        /* the optional fields of "Joint" settle on the smaller text */
        assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE venue = 'A Journal'"), 1);
        assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE venue = 'JMLR'"), 1);
        dump[pass] = papers_dump(d);
        /* again: nothing added */
        char *path = write_named(dir, names[1], lab_b_bib);
        assert_int_equal(import_pubs(d, path, 1, &res, &err), 0);
        assert_int_equal(res.added, 0);
        assert_int_equal(res.unchanged, 2);
        unlink(path);
        free(path);
        assert_int_equal(sqlite3_exec(store_db(d->st), "DELETE FROM paper_authors; DELETE FROM "
                                  "paper_sources; DELETE FROM papers;", NULL, NULL, NULL), SQLITE_OK);
    }
    assert_string_equal(dump[0], dump[1]);
    free(dump[0]);
    free(dump[1]);
    /* a database of before schema v21: its papers keyed '' by the migration
     * get their key at the next import, which adds nothing */
    char *path = write_named(dir, names[1], lab_b_bib);
    assert_int_equal(import_pubs(d, path, 1, &res, &err), 0);
    char *before = papers_dump(d);
    assert_int_equal(sqlite3_exec(store_db(d->st), "UPDATE papers SET authors_key = ''", NULL,
                                  NULL, NULL), SQLITE_OK);
    assert_int_equal(import_pubs(d, path, 1, &res, &err), 0);
    assert_int_equal(res.added, 0);
    assert_int_equal(res.unchanged, 2);
    char *after = papers_dump(d);
    assert_string_equal(before, after);
    free(before);
    free(after);
    unlink(path);
    free(path);
    unlink(roster);
    free(roster);
    rmdir(dir);
    free(dir);
}

static void test_real_lab_bibs(void **state)
{
    TuDb *d = *state;
    import_lab(d, "aidos-lab");
    import_lab(d, "mainlp");
    /* 152 + 106 entries; 2 + 1 repeat a title in the same year */
    assert_int_equal(q(d, "SELECT count(*) FROM papers"), 255);
    assert_int_equal(q(d, "SELECT count(*) FROM papers WHERE year BETWEEN 2022 AND 2025 AND "
                          "bibkey LIKE '%etal%'"),
                     q(d, "SELECT count(*) FROM papers WHERE bibkey LIKE '%etal%'"));
    ResearchData rd;
    CpErr err = {""};
    assert_int_equal(store_research_load(d->st, 0, &rd, &err), 0);
    assert_int_equal(rd.slots, 1418);
    assert_int_equal(rd.matched, 409);
    assert_int_equal(rd.nunmatched, 621);
    assert_int_equal(rd.papers_matched, 253);
    int people = 0, aidos = 0;
    for (int i = 0; i < rd.npeople; i++)
        if (matched_slots(&rd, rd.people[i].user) > 0) {
            people++;
            aidos += strcmp(rd.people[i].group, "aidos-lab") == 0;
        }
    assert_int_equal(people, 44);
    assert_int_equal(aidos, 20);
    assert_int_equal(matched_slots(&rd, "brieck"), 147);
    assert_int_equal(matched_slots(&rd, "bplank"), 101);
    assert_int_equal(matched_slots(&rd, "vduran"), 2);
    assert_int_equal(matched_slots(&rd, "sshim"), 1);
    assert_int_equal(matched_slots(&rd, "rvandergoot"), 21);
    assert_int_equal(matched_slots(&rd, "smohammad"), 3);
    assert_int_equal(matched_slots(&rd, "pgawade"), 0);
    /* the most frequent author outside both rosters */
    assert_string_equal(rd.unmatched[0].name, "Borgwardt, Karsten");
    assert_int_equal(rd.unmatched[0].papers, 32);
    store_research_done(&rd);
    /* k = 2 separates the labs: the 17 mainlp people with papers in one
     * cluster (LLMs, annotation, few-shot), 18 of aidos-lab's 19 in the
     * other (graph learning, geometric DL); ARI against the lab 0.88881
     * (sklearn adjusted_rand_score over the --json output). With
     * "network", "variation" and "bias" as single words (before issue 32)
     * 3 of aidos-lab's people joined mainlp's cluster: ARI 0.68559. */
    ResearchOpts o;
    research_opts_init(&o);
    o.k = 2;
    Research r;
    assert_int_equal(research_build(d->st, &o, &r, &err), 0);
    int lab[64], cl[64], n = 0, mainlp_in[2] = {0, 0}, aidos_in[2] = {0, 0};
    for (int i = 0; i < r.nrows && n < 64; i++)
        if (r.rows[i].cluster >= 0) {
            lab[n] = strcmp(r.rows[i].group, "mainlp") == 0;
            cl[n] = r.rows[i].cluster;
            (lab[n] ? mainlp_in : aidos_in)[cl[n]]++;
            n++;
        }
    assert_int_equal(n, 36);
    assert_int_equal(mainlp_in[0] + mainlp_in[1], 17);
    assert_int_equal(mainlp_in[0] == 0 || mainlp_in[1] == 0, 1);
    int mc = mainlp_in[0] ? 0 : 1;
    assert_int_equal(aidos_in[mc], 1);
    assert_int_equal(aidos_in[1 - mc], 18);
    assert_float_equal(research_ari(lab, cl, n), 0.88880820550059, 1e-12);
    research_free(&r);
}

/* 10,000 generated papers of 1,000 people imported and clustered: the
 * issue's budget is 1 s (release build; bench/run.sh measures it). Here
 * the figures: every paper lands and every author matches. */
static void test_ten_thousand(void **state)
{
    TuDb *d = *state;
    char *roster = tu_temp_path(".csv"), *bib = tu_temp_path(".bib");
    FILE *f = fopen(roster, "w");
    fprintf(f, "user,group,role,domain,start,end,name\n");
    for (int i = 0; i < 1000; i++)
        fprintf(f, "u%d,g%d,phd-student,ML,2020-01-01,,Given%d Family%d\n", i, i % 20, i, i);
    fclose(f);
    static const char *const topics[4] = {"LLM pretraining on C4", "diffusion models on LAION",
                                          "graph neural networks on OGB",
                                          "Gaussian processes for climate"};
    f = fopen(bib, "w");
    for (int p = 0; p < 10000; p++) {
        int a = p % 1000, b = (p * 7 + 3) % 1000;
        fprintf(f, "@article{k%d, author = {Family%d, Given%d and Given%d Family%d},\n"
                   " title = {Paper %d: %s}, year = %d}\n",
                p, a, a, b, b, p, topics[a % 4], 2019 + p % 7);
    }
    fclose(f);
    ImportResult res;
    CpErr err = {""};
    assert_int_equal(import_csv(d->st, "roster", roster, NULL, &res, &err), 0);
    assert_int_equal(import_pubs(d, bib, 0, &res, &err), 0);
    assert_int_equal(res.added, 10000);
    Research r;
    assert_int_equal(research_build(d->st, NULL, &r, &err), 0);
    assert_int_equal(r.data.npapers, 10000);
    assert_int_equal(r.data.matched, 20000);
    research_free(&r);
    unlink(roster);
    unlink(bib);
    free(roster);
    free(bib);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_db_setup, tu_db_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_key),    cmocka_unit_test(test_names_text),
        cmocka_unit_test(test_names_index),  cmocka_unit_test(test_terms_scan),
        cmocka_unit_test(test_tfidf_sklearn), cmocka_unit_test(test_ari_nmi_sklearn),
        cmocka_unit_test(test_clusters),     cmocka_unit_test(test_compare),
        T(test_bib_bad_entries),             T(test_bib_field_errors),
        T(test_research_csv),                T(test_roster_aliases),
        T(test_bib_encoding),                T(test_no_paper_lost),
        T(test_bib_real_world),              cmocka_unit_test(test_hidden_demand),
        T(test_real_lab_bibs),
        T(test_ten_thousand),
    };
#undef T
    return cmocka_run_group_tests_name("research", tests, NULL, NULL);
}
