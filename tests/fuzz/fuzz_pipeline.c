/* fuzz_pipeline: libFuzzer target for the whole way from an input file to
 * what a user reads. The input is imported into an in-memory database,
 * then every output runs over it: `status --json`, `stats KIND --json` for
 * every kind, `profile --json --no-save`, `project --json` and the report
 * writer (report.md and its SVG charts, plain and anonymised). Every output
 * must be valid UTF-8; JSON must parse whole, with finite numbers only; the
 * report's Markdown holds no control character but newlines; every SVG
 * must be well-formed XML; status's figures must be finite.
 *
 * The first byte picks the options, the rest is the input:
 *   bit 0  the rest is "SACCT\n#roster\nROSTER": a roster is imported too
 *   bit 1  the report is anonymised too
 *   bit 2  the sacct part is read as a trace of Philly JSON instead
 */
#include <cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/status_print.h"
#include "core/stats.h"
#include "data/ingest/import.h"
#include "data/store/store.h"
#include "reports/report.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- checks ---- */

static void check_utf8(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                   : (c & 0xf8) == 0xf0 ? 4 : 0;
        FUZZ_CHECK(len > 0 && c != 0xc0 && c != 0xc1 && i + len <= n);
        for (size_t k = 1; k < len; k++)
            FUZZ_CHECK(((unsigned char)s[i + k] & 0xc0) == 0x80);
        i += len;
    }
}

static void check_json_numbers(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        FUZZ_CHECK(isfinite(v->valuedouble));
    for (const cJSON *c = v ? v->child : NULL; c; c = c->next)
        check_json_numbers(c);
}

static void check_json(const char *s, size_t n)
{
    check_utf8(s, n);
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(s, n, &end, 0);
    FUZZ_CHECK(v != NULL);
    while (end < s + n && (*end == '\n' || *end == ' ' || *end == '\r' || *end == '\t'))
        end++;
    FUZZ_CHECK(end == s + n);
    check_json_numbers(v);
    cJSON_Delete(v);
}

static int name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static int name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* An entity at s ("&amp;", "&#38;", "&#x26;"): its length, 0 if none. */
static size_t entity(const char *s)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++)
        if (strncmp(s, named[i], strlen(named[i])) == 0)
            return strlen(named[i]);
    size_t i = 1;
    if (s[i++] != '#')
        return 0;
    int hex = s[i] == 'x';
    i += (size_t)hex;
    size_t d = i;
    while ((s[i] >= '0' && s[i] <= '9') ||
           (hex && ((s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F'))))
        i++;
    return i > d && s[i] == ';' ? i + 1 : 0;
}

/* Text or an attribute value up to stop: no '<', '&' only as an entity, no
 * control character but tab and newline. */
static const char *xml_chars(const char *p, char stop)
{
    while (*p && *p != stop) {
        FUZZ_CHECK(*p != '<' || stop == '<');
        FUZZ_CHECK((unsigned char)*p >= 0x20 || *p == '\n' || *p == '\t');
        if (*p == '&') {
            size_t e = entity(p);
            FUZZ_CHECK(e > 0);
            p += e;
        } else {
            p++;
        }
    }
    return p;
}

/* Well-formed XML: one root, tags nested and closed, attributes quoted. */
static void check_xml(const char *s)
{
    const char *stack[128];
    size_t slen[128];
    int depth = 0, roots = 0;
    const char *p = s;
    if (strncmp(p, "<?xml", 5) == 0) {
        p = strstr(p, "?>");
        FUZZ_CHECK(p != NULL);
        p += 2;
    }
    while (*p) {
        if (*p != '<') {
            const char *q = xml_chars(p, '<');
            if (depth == 0)
                for (; p < q; p++)
                    FUZZ_CHECK(*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r');
            p = q;
            continue;
        }
        if (strncmp(p, "<!--", 4) == 0) {
            p = strstr(p + 4, "-->");
            FUZZ_CHECK(p != NULL);
            p += 3;
            continue;
        }
        int closing = p[1] == '/';
        p += 1 + closing;
        const char *name = p;
        FUZZ_CHECK(name_start(*p));
        while (name_char(*p))
            p++;
        size_t nlen = (size_t)(p - name);
        if (closing) {
            FUZZ_CHECK(depth > 0 && slen[depth - 1] == nlen &&
                       strncmp(stack[depth - 1], name, nlen) == 0);
            depth--;
            while (*p == ' ' || *p == '\n')
                p++;
            FUZZ_CHECK(*p == '>');
            p++;
            continue;
        }
        for (;;) {
            while (*p == ' ' || *p == '\n' || *p == '\t')
                p++;
            if (*p == '>' || (p[0] == '/' && p[1] == '>'))
                break;
            FUZZ_CHECK(name_start(*p));
            while (name_char(*p))
                p++;
            FUZZ_CHECK(*p == '=');
            p++;
            char q = *p;
            FUZZ_CHECK(q == '"' || q == '\'');
            p = xml_chars(p + 1, q);
            FUZZ_CHECK(*p == q);
            p++;
        }
        if (depth == 0)
            roots++;
        if (*p == '/') {
            p += 2;
            continue;
        }
        p++;
        FUZZ_CHECK(depth < 128);
        stack[depth] = name;
        slen[depth++] = nlen;
    }
    FUZZ_CHECK(depth == 0 && roots == 1);
}

/* ---- running the commands ---- */

static char tmpdir[64];

static char *read_all(int fd, size_t *n)
{
    off_t end = lseek(fd, 0, SEEK_END);
    FUZZ_CHECK(end >= 0);
    char *buf = malloc((size_t)end + 1);
    FUZZ_CHECK(pread(fd, buf, (size_t)end, 0) == end);
    buf[end] = '\0';
    *n = (size_t)end;
    return buf;
}

/* Run a command with stdout captured; its JSON output checked when it
 * succeeded. */
static void run_json(Store *st, const CmdEntry *e, int argc, const char **argv)
{
    CliCtx ctx = {":memory:", st, 0, 1};
    fflush(stdout);
    int saved = dup(1), fd = memfd_create("out", 0);
    FUZZ_CHECK(saved >= 0 && fd >= 0);
    dup2(fd, 1);
    int rc = e->exec(&ctx, argc, (char **)argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    size_t n;
    char *out = read_all(fd, &n);
    close(fd);
    if (rc == 0)
        check_json(out, n);
    free(out);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL);
    char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + *n, 1, cap - *n - 1, f);
        *n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[*n] = '\0';
    return buf;
}

static void check_report(Store *st, int anonymize)
{
    ReportOpts o;
    memset(&o, 0, sizeof o);
    o.anonymize = anonymize;
    CpErr err;
    Report *r = report_new(st, &o, &err);
    if (!r)
        return;
    char path[128], dir[128];
    snprintf(path, sizeof path, "%s/r.md", tmpdir);
    snprintf(dir, sizeof dir, "%s/r_files", tmpdir);
    int rc = report_write_md(r, path, &err);
    report_free(r);
    if (rc < 0)
        return;
    size_t n;
    char *md = slurp(path, &n);
    check_utf8(md, n);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK((unsigned char)md[i] >= 0x20 || md[i] == '\n');
    free(md);
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char svg[512];
        snprintf(svg, sizeof svg, "%s/%s", dir, e->d_name);
        char *x = slurp(svg, &n);
        check_utf8(x, n);
        check_xml(x);
        free(x);
        unlink(svg);
    }
    closedir(d);
    unlink(path);
}

static void check_status(Store *st)
{
    StoreStatus s;
    CpErr err;
    if (store_status(st, &s, &err) == 0) {
        FUZZ_CHECK(isfinite(s.gpu_hours) && isfinite(s.cpu_hours));
        FUZZ_CHECK(s.jobs >= 0 && s.attempts >= s.jobs);
        store_status_free(&s);
    }
    const char *argv[] = {"status", "--json", NULL};
    run_json(st, &cmd_status, 2, argv);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    fwrite(p, 1, n, f);
    fclose(f);
}

static void quiet_reject(void *ctx, const char *msg)
{
    (void)ctx;
    FUZZ_CHECK(msg != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!tmpdir[0]) {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/fuzz_pipeline.XXXXXX");
        FUZZ_CHECK(mkdtemp(tmpdir) != NULL);
    }
    uint8_t opt = data[0];
    const uint8_t *body = data + 1;
    size_t n = size - 1, nsacct = n;
    const uint8_t *roster = NULL;
    if (opt & 1) {
        const uint8_t *m = memmem(body, n, "\n#roster\n", 9);
        if (m) {
            nsacct = (size_t)(m - body);
            roster = m + 9;
        }
    }
    char jobs[128], people[128];
    snprintf(jobs, sizeof jobs, "%s/jobs", tmpdir);
    snprintf(people, sizeof people, "%s/roster.csv", tmpdir);
    write_file(jobs, body, nsacct);
    CpErr err;
    Store *st = store_open(":memory:", &err);
    FUZZ_CHECK(st != NULL);
    ImportOpts io;
    ImportResult res;
    import_opts_init(&io);
    io.reject = quiet_reject;
    memset(&res, 0, sizeof res);
    int rc = (opt & 4) ? import_trace(st, jobs, &io, &res, &err)
                       : import_sacct(st, jobs, &io, &res, &err);
    if (roster) {
        write_file(people, roster, n - (size_t)(roster - body));
        memset(&res, 0, sizeof res);
        import_csv(st, "roster", people, &io, &res, &err);
    }
    (void)rc;
    check_status(st);
    for (int k = 0; k < STATS_KIND_COUNT; k++) {
        const char *argv[] = {"stats", stats_kind_name((StatsKind)k), "--json", NULL};
        run_json(st, &cmd_stats, 3, argv);
    }
    const char *prof[] = {"profile", "--json", "--no-save", NULL};
    run_json(st, &cmd_profile, 3, prof);
    const char *proj[] = {"project", "--json", NULL};
    run_json(st, &cmd_project, 2, proj);
    check_report(st, 0);
    if (opt & 2)
        check_report(st, 1);
    store_close(st);
    unlink(jobs);
    unlink(people);
    return 0;
}
