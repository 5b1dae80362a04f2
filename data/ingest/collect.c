#include "data/ingest/collect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "data/ingest/fields.h"
#include "data/store/store_collect.h"

extern char **environ;

void collect_opts_init(CollectOpts *o)
{
    memset(o, 0, sizeof *o);
    o->sacct = "sacct";
    o->since = CP_TIME_NONE;
    o->month = 1;
}

/* ---- the window ---- */

void collect_source(const char *sacct, char *out, size_t sz)
{
    size_t k = 0;
    const char *p = sacct && sacct[0] ? sacct : "sacct";
    out[0] = '\0';
    while (*p) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, " \t");
        if (len == 0)
            break;
        int w = snprintf(out + k, k < sz ? sz - k : 0, "%s%.*s", k ? " " : "", (int)len, p);
        if (w < 0 || (size_t)w >= sz - k)
            break;
        k += (size_t)w;
        p += len;
    }
}

int collect_next_since(Store *st, const char *sacct, const char *clusters, int64_t *since,
                       CpErr *err)
{
    StoreCollectWindow *w;
    size_t n;
    char source[2048];
    collect_source(sacct, source, sizeof source);
    if (store_collect_windows(st, source, clusters, &w, &n, err) < 0)
        return -1;
    if (n == 0) {
        *since = COLLECT_FIRST_SINCE;
        return 0;
    }
    /* w is in order of since: extend the covered stretch while the next
     * window starts inside it; a gap ends it (what lies after the gap is
     * read again, which the store makes harmless). */
    int64_t covered = w[0].until;
    for (size_t i = 1; i < n && w[i].since <= covered; i++)
        if (w[i].until > covered)
            covered = w[i].until;
    free(w);
    *since = covered - COLLECT_OVERLAP_S;
    if (*since < COLLECT_FIRST_SINCE)
        *since = COLLECT_FIRST_SINCE;
    return 0;
}

/* "2026-11-21T08:00:00", UTC. */
static void format_time(int64_t t, char *buf, size_t sz)
{
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    snprintf(buf, sz, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
}

/* ---- finding and running sacct ---- */

/* prog as given when it holds a '/', else the first executable of that
 * name in PATH. */
static int find_program(const char *prog, char *out, size_t outsz, CpErr *err)
{
    if (strchr(prog, '/')) {
        snprintf(out, outsz, "%s", prog);
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path || !path[0])
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        struct stat sb;
        snprintf(out, outsz, "%.*s/%s", (int)len, len ? p : ".", prog);
        if (stat(out, &sb) == 0 && S_ISREG(sb.st_mode) && access(out, X_OK) == 0)
            return 0;
        if (!colon)
            break;
        p = colon + 1;
    }
    return cp_err_set(err, "sacct: '%s' not found in PATH (install slurm-client, or give --sacct PATH)",
                      prog);
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The environment sacct runs in: ours, with TZ=UTC (times are read as
 * UTC) and SLURM_TIME_FORMAT=standard (ISO times, whatever the user's
 * setting). Caller frees the array (not the strings). */
static char **sacct_environment(void)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = xcalloc(n + 3, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!starts_with(environ[i], "TZ=") && !starts_with(environ[i], "SLURM_TIME_FORMAT="))
            env[k++] = environ[i];
    static char tz[] = "TZ=UTC", time_format[] = "SLURM_TIME_FORMAT=standard";
    env[k++] = tz;
    env[k++] = time_format;
    env[k] = NULL;
    return env;
}

/* The command as given (--sacct): words split on blanks; the last word is
 * the sacct program, the words before it (ssh login1, sudo -u slurm) the
 * way to reach it. */
typedef struct SacctCmd {
    char buf[2048];
    char source[2048]; /* the words joined by one blank: the window's key */
    char *word[16];
    int n;
    char prog[4096]; /* word[0] found in PATH */
} SacctCmd;

static int sacct_cmd(SacctCmd *c, const char *given, CpErr *err)
{
    snprintf(c->buf, sizeof c->buf, "%s", given && given[0] ? given : "sacct");
    c->n = 0;
    for (char *save = NULL, *w = strtok_r(c->buf, " \t", &save); w;
         w = strtok_r(NULL, " \t", &save)) {
        if (c->n == 16)
            return cp_err_set(err, "--sacct: more than 16 words in '%s'", given);
        c->word[c->n++] = w;
    }
    if (c->n == 0)
        return cp_err_set(err, "--sacct: empty command");
    collect_source(given, c->source, sizeof c->source);
    return find_program(c->word[0], c->prog, sizeof c->prog, err);
}

/* The argument list; strings live in the struct or are constants. */
typedef struct SacctArgs {
    char *argv[48];
    char prog[4096], tool[4096], format[512], state[128], since[32], until[32], clusters[512];
    char extra[5][128];
    int k;
} SacctArgs;

static char opt_json[] = "--json", opt_all[] = "-a", opt_dup[] = "-D", opt_pipe[] = "-P",
            opt_start[] = "-S", opt_end[] = "-E", opt_now[] = "now", opt_clusters[] = "-M",
            env_prog[] = "env", env_tz[] = "TZ=UTC", env_format[] = "SLURM_TIME_FORMAT=standard";

/* argv up to and including the tool: the words before sacct, then (when
 * there are some: ssh does not pass our environment on) env TZ=UTC
 * SLURM_TIME_FORMAT=standard, then tool ("sacct", or scontrol, sacctmgr, id
 * beside it: the last word's directory with tool's name). */
static int tool_args(SacctArgs *a, const SacctCmd *c, const char *tool)
{
    const char *last = c->word[c->n - 1];
    const char *slash = strrchr(last, '/');
    if (!tool)
        snprintf(a->tool, sizeof a->tool, "%s", last);
    else if (slash && strcmp(tool, "id") != 0)
        snprintf(a->tool, sizeof a->tool, "%.*s/%s", (int)(slash - last), last, tool);
    else
        snprintf(a->tool, sizeof a->tool, "%s", tool);
    a->k = 0;
    snprintf(a->prog, sizeof a->prog, "%s", c->prog);
    if (c->n == 1) {
        CpErr ignored;
        if (tool && !strchr(a->tool, '/') &&
            find_program(tool, a->tool, sizeof a->tool, &ignored) < 0)
            return -1;
        a->argv[a->k++] = tool ? a->tool : a->prog;
        return 0;
    }
    a->argv[a->k++] = a->prog;
    for (int i = 1; i < c->n - 1; i++)
        a->argv[a->k++] = c->word[i];
    a->argv[a->k++] = env_prog;
    a->argv[a->k++] = env_tz;
    a->argv[a->k++] = env_format;
    a->argv[a->k++] = a->tool;
    return 0;
}

/* sacct's arguments for the window [since, until] (until 0: -E now). */
static void sacct_args(SacctArgs *a, const SacctCmd *c, const CollectOpts *o, int64_t since,
                       int64_t until)
{
    (void)tool_args(a, c, NULL);
    int k = a->k;
    if (o->json)
        a->argv[k++] = opt_json;
    a->argv[k++] = opt_all;
    a->argv[k++] = opt_dup;
    if (!o->json) {
        a->argv[k++] = opt_pipe;
        snprintf(a->format, sizeof a->format, "--format=%s", COLLECT_FIELDS);
        a->argv[k++] = a->format;
    }
    snprintf(a->state, sizeof a->state, "--state=%s", COLLECT_STATES);
    a->argv[k++] = a->state;
    format_time(since, a->since, sizeof a->since);
    a->argv[k++] = opt_start;
    a->argv[k++] = a->since;
    a->argv[k++] = opt_end;
    if (until > 0) {
        format_time(until, a->until, sizeof a->until);
        a->argv[k++] = a->until;
    } else {
        a->argv[k++] = opt_now;
    }
    if (o->clusters && o->clusters[0]) {
        snprintf(a->clusters, sizeof a->clusters, "%s", o->clusters);
        a->argv[k++] = opt_clusters;
        a->argv[k++] = a->clusters;
    }
    a->argv[k] = NULL;
}

/* An unlinked temporary file in dir, open for reading and writing. */
static int temp_file(const char *dir, CpErr *err)
{
    char name[4096];
    snprintf(name, sizeof name, "%s/capplan-sacct.XXXXXX", dir);
    int fd = mkostemp(name, O_CLOEXEC);
    if (fd < 0)
        return cp_err_set(err, "temporary file in %s: %s", dir, strerror(errno));
    unlink(name);
    return fd;
}

/* In the child: standard input from /dev/null, output and error to the
 * files, then exec; if that fails, errno goes up the report pipe.
 * Async-signal-safe calls only. */
static _Noreturn void child_exec(const char *prog, char *const argv[], char *const env[], int out,
                                 int errf, int report, pid_t parent)
{
    /* sacct goes when capplan goes (killed while it waits), not left running */
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
        _exit(127);
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (in >= 0 && dup2(in, 0) >= 0 && dup2(out, 1) >= 0 && dup2(errf, 2) >= 0)
        execve(prog, argv, env);
    int e = errno;
    ssize_t w = write(report, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* fork/exec prog with out and errf as its standard output and error. On
 * success *status holds the wait status; -1 with err when it could not be
 * run at all. */
static int spawn(const char *prog, char *const argv[], int out, int errf, int *status,
                 CpErr *err)
{
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) < 0)
        return cp_err_set(err, "sacct: pipe: %s", strerror(errno));
    char **env = sacct_environment();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_exec(prog, argv, env, out, errf, pipefd[1], parent);
    int fork_errno = errno;
    free(env);
    close(pipefd[1]);
    if (pid < 0) {
        close(pipefd[0]);
        return cp_err_set(err, "sacct: fork: %s", strerror(fork_errno));
    }
    int exec_errno = 0;
    ssize_t got;
    do
        got = read(pipefd[0], &exec_errno, sizeof exec_errno);
    while (got < 0 && errno == EINTR);
    close(pipefd[0]);
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            return cp_err_set(err, "sacct: wait: %s", strerror(errno));
    if (got == (ssize_t)sizeof exec_errno)
        return cp_err_set(err, "sacct: %s: %s", prog, strerror(exec_errno));
    return 0;
}

/* ---- reading what sacct said ---- */

/* Up to sz - 1 bytes of what fd holds, from its start. */
static void read_head(int fd, char *buf, size_t sz)
{
    ssize_t n = pread(fd, buf, sz - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
}

/* The line to tell: the first that says "error", else the first that is
 * not blank, without sacct's "sacct: " and "error: " prefixes. "" if none. */
static void first_error_line(const char *text, char *out, size_t sz)
{
    const char *pick = NULL;
    size_t pick_len = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int blank = strspn(p, " \t\r") >= len;
        int is_error = 0;
        for (size_t i = 0; i + 5 <= len && !is_error; i++)
            is_error = strncasecmp(p + i, "error", 5) == 0;
        if (!blank && (is_error || !pick)) {
            pick = p;
            pick_len = len;
            if (is_error)
                break;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    out[0] = '\0';
    if (!pick)
        return;
    while (pick_len && (pick[pick_len - 1] == '\r' || pick[pick_len - 1] == ' '))
        pick_len--;
    static const char *const prefixes[] = {"sacct: ", "error: "};
    for (size_t i = 0; i < 2; i++)
        if (pick_len >= strlen(prefixes[i]) && starts_with(pick, prefixes[i])) {
            pick += strlen(prefixes[i]);
            pick_len -= strlen(prefixes[i]);
        }
    snprintf(out, sz, "%.*s", (int)pick_len, pick);
}

static int contains_error(const char *text)
{
    for (const char *p = text; *p; p++)
        if (strncasecmp(p, "error", 5) == 0)
            return 1;
    return 0;
}

/* 0 when sacct succeeded: exit 0, no error on stderr, something on stdout.
 * Else -1 with err "sacct: <what went wrong>". */
static int judge_sacct(int status, int out, int errf, char *warning, size_t wsz, CpErr *err)
{
    char text[16384], line[400];
    read_head(errf, text, sizeof text);
    first_error_line(text, line, sizeof line);
    warning[0] = '\0';
    if (WIFSIGNALED(status))
        return cp_err_set(err, "sacct: %s", line[0] ? line : strsignal(WTERMSIG(status)));
    if (WEXITSTATUS(status) != 0) {
        if (line[0])
            return cp_err_set(err, "sacct: %s", line);
        return cp_err_set(err, "sacct: exited with status %d", WEXITSTATUS(status));
    }
    if (contains_error(text))
        return cp_err_set(err, "sacct: %s", line);
    struct stat sb;
    if (fstat(out, &sb) == 0 && sb.st_size == 0)
        return cp_err_set(err, "sacct: printed nothing");
    snprintf(warning, wsz, "%s", line);
    return 0;
}

/* ---- importing it ---- */

/* Messages of the import name the temporary file: name sacct instead. */
typedef struct Relabel {
    const char *from;
    void (*reject)(void *ctx, const char *msg);
    void *reject_ctx;
} Relabel;

static void relabel(const char *from, const char *msg, char *out, size_t sz)
{
    size_t n = strlen(from);
    if (strncmp(msg, from, n) == 0)
        snprintf(out, sz, "sacct%s", msg + n);
    else
        snprintf(out, sz, "%s", msg);
}

static void relabel_reject(void *ctx, const char *msg)
{
    Relabel *r = ctx;
    char buf[CP_ERR_MAX + 64];
    relabel(r->from, msg, buf, sizeof buf);
    if (r->reject)
        r->reject(r->reject_ctx, buf);
}

/* The path import_sacct reads sacct's output by: the open, unlinked file
 * through /proc (Linux), a name unique to this process while it runs, so
 * that the import row it writes is found again, and nothing is left behind
 * if capplan is killed. */
static int output_path(int fd, char *path, size_t sz, CpErr *err)
{
    snprintf(path, sz, "/proc/%ld/fd/%d", (long)getpid(), fd);
    if (access(path, R_OK) != 0)
        return cp_err_set(err, "cannot read sacct's output through %s: %s", path,
                          strerror(errno));
    return 0;
}

/* Import one window's output and record the window. */
static int import_output(Store *st, const CollectOpts *o, const char *source, int out,
                         const char *label, int64_t since, int64_t until, int progress,
                         ImportResult *r, int *recorded, CpErr *err)
{
    char path[64];
    *recorded = 0;
    if (output_path(out, path, sizeof path, err) < 0)
        return -1;
    Relabel rl = {path, o->reject, o->reject_ctx};
    ImportOpts io;
    import_opts_init(&io);
    io.progress = progress;
    io.reject = relabel_reject;
    io.reject_ctx = &rl;
    if (import_sacct(st, path, &io, r, err) < 0) {
        char msg[CP_ERR_MAX];
        relabel(path, err->msg, msg, sizeof msg);
        return cp_err_set(err, "%s", msg);
    }
    if (r->rejected > 0)
        return 0; /* the window stays: those lines are read again next time */
    const char *clusters = o->clusters ? o->clusters : "";
    if (store_collect_record(st, source, clusters, since, until, path, label, r->rows_read > 0,
                             err) < 0)
        return -1;
    *recorded = 1;
    return 0;
}

/* Run argv (argv[0] a path) and keep the head of its standard output in
 * buf. 0 when it exited 0. */
static int capture(char *const argv[], const char *dir, char *buf, size_t sz)
{
    CpErr err;
    int out = temp_file(dir, &err), errf = out < 0 ? -1 : temp_file(dir, &err), status, rc = -1;
    buf[0] = '\0';
    if (out >= 0 && errf >= 0 && spawn(argv[0], argv, out, errf, &status, &err) == 0 &&
        WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        read_head(out, buf, sz);
        rc = 0;
    }
    if (out >= 0)
        close(out);
    if (errf >= 0)
        close(errf);
    return rc;
}

/* The value of "KEY = value" in scontrol show config's text, trimmed. */
static void config_value(const char *text, const char *key, char *out, size_t sz)
{
    out[0] = '\0';
    size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, key, n) != 0 || (p[n] != ' ' && p[n] != '='))
            continue;
        const char *v = strchr(p, '=');
        if (!v)
            return;
        v += strspn(v + 1, " ") + 1;
        size_t len = strcspn(v, "\n");
        snprintf(out, sz, "%.*s", (int)len, v);
        return;
    }
}

/* Run TOOL ARGS... beside sacct (through the same words) into buf. */
static int beside(const SacctCmd *c, const char *dir, const char *tool, const char *a1,
                  const char *a2, const char *a3, const char *a4, const char *a5, char *buf,
                  size_t sz)
{
    SacctArgs a;
    if (tool_args(&a, c, tool) < 0)
        return -1;
    const char *more[] = {a1, a2, a3, a4, a5};
    for (size_t i = 0; i < 5 && more[i]; i++) {
        snprintf(a.extra[i], sizeof a.extra[i], "%s", more[i]);
        a.argv[a.k++] = a.extra[i];
    }
    a.argv[a.k] = NULL;
    return capture(a.argv, dir, buf, sz);
}

/* PrivateData=jobs hides other users' jobs from a user who is not root,
 * SlurmUser or an operator: sacct -a then lists that user's own jobs,
 * without a word. Refuse (-1, err) when that is the case; when scontrol,
 * id or sacctmgr cannot be run beside sacct, nothing can be told: 0. */
static int check_private_data(const SacctCmd *c, const char *dir, CpErr *err)
{
    char conf[65536], priv[256], slurm_user[128], me[128], level[256];
    if (beside(c, dir, "scontrol", "show", "config", NULL, NULL, NULL, conf, sizeof conf) < 0)
        return 0;
    config_value(conf, "PrivateData", priv, sizeof priv);
    if (!strstr(priv, "jobs"))
        return 0;
    config_value(conf, "SlurmUser", slurm_user, sizeof slurm_user);
    slurm_user[strcspn(slurm_user, "(")] = '\0';
    if (beside(c, dir, "id", "-un", NULL, NULL, NULL, NULL, me, sizeof me) < 0)
        return 0;
    me[strcspn(me, "\r\n")] = '\0';
    if (!me[0] || strcmp(me, "root") == 0 || strcmp(me, slurm_user) == 0)
        return 0;
    if (beside(c, dir, "sacctmgr", "-n", "-P", "show", "user", me, level, sizeof level) == 0 &&
        (strstr(level, "Operator") || strstr(level, "Administrator")))
        return 0;
    return cp_err_set(err,
                      "Slurm's PrivateData=%s shows %s only their own jobs; collect would take them "
                      "for the site's. Run it as root, as SlurmUser (%s), or give %s AdminLevel "
                      "Operator (sacctmgr modify user %s set AdminLevel=Operator)",
                      priv, me, slurm_user[0] ? slurm_user : "slurm", me, me);
}

/* The first second of the month after t, UTC. */
static int64_t next_month(int64_t t)
{
    int y, mo, d, h, mi, sec;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &sec);
    return mo == 12 ? fields_epoch_of(y + 1, 1, 1, 0, 0, 0) : fields_epoch_of(y, mo + 1, 1, 0, 0, 0);
}

int collect_months(int64_t since, int64_t now)
{
    int n = 1;
    for (int64_t t = next_month(since); t < now; t = next_month(t))
        n++;
    return n;
}

/* One window: sacct, judged, imported, recorded (progress: the import's
 * progress line on stderr). */
static int run_window(Store *st, const CollectOpts *o, const SacctCmd *c, const char *dir,
                      int64_t since, int64_t until, int progress, CollectResult *res,
                      ImportResult *r, int *recorded, CpErr *err)
{
    char since_s[32], label[256];
    const char *clusters = o->clusters ? o->clusters : "";
    SacctArgs args;
    sacct_args(&args, c, o, since, until);
    format_time(since, since_s, sizeof since_s);
    snprintf(label, sizeof label, "sacct since %sZ%s%s", since_s, clusters[0] ? " -M " : "",
             clusters);
    int out = temp_file(dir, err), errf = out < 0 ? -1 : temp_file(dir, err);
    int rc = -1, status;
    memset(r, 0, sizeof *r);
    *recorded = 0;
    if (out < 0 || errf < 0)
        goto out;
    if (until == 0)
        until = (int64_t)time(NULL);
    if (spawn(args.argv[0], args.argv, out, errf, &status, err) < 0 ||
        judge_sacct(status, out, errf, res->warning, sizeof res->warning, err) < 0)
        goto out;
    rc = import_output(st, o, c->source, out, label, since, until, progress, r, recorded, err);
    res->until = until;
out:
    if (out >= 0)
        close(out);
    if (errf >= 0)
        close(errf);
    return rc;
}

static void add_counts(ImportResult *sum, const ImportResult *r)
{
    if (r->rows_read > 0 || !sum->format[0])
        snprintf(sum->format, sizeof sum->format, "%s", r->format);
    sum->rows_read += r->rows_read;
    sum->added += r->added;
    sum->updated += r->updated;
    sum->unchanged += r->unchanged;
    sum->rejected += r->rejected;
}

/* sacct refused the window as too wide (slurmdbd's MaxQueryTimeRange:
 * "Too wide of a date range in query"). */
static int too_wide(const char *msg)
{
    for (const char *p = msg; *p; p++)
        if (strncasecmp(p, "too wide", 8) == 0)
            return 1;
    return 0;
}

/* The windows from res->since to now, one after the other (months with
 * o->month); stops at the first that rejected lines. */
static int run_windows(Store *st, const CollectOpts *o, const SacctCmd *cmd, const char *dir,
                       int64_t now, CollectResult *res, CpErr *err)
{
    res->windows = o->month ? collect_months(res->since, now) : 1;
    int64_t from = res->since;
    for (int i = 0; i < res->windows; i++) {
        int64_t to = i + 1 < res->windows ? next_month(from) : 0;
        ImportResult r;
        int recorded;
        if (run_window(st, o, cmd, dir, from, to, o->progress && res->windows == 1, res, &r,
                       &recorded, err) < 0)
            return -1;
        add_counts(&res->import, &r);
        res->recorded = recorded;
        res->done = i + 1;
        if (o->window_done)
            o->window_done(o->window_ctx, from, i + 1, res->windows, &r);
        if (!recorded)
            break; /* rejected lines: the next collect starts here again */
        from = to;
    }
    return 0;
}

int collect_run(Store *st, const CollectOpts *o, CollectResult *res, CpErr *err)
{
    memset(res, 0, sizeof *res);
    const char *clusters = o->clusters ? o->clusters : "";
    res->since = o->since;
    if (res->since == CP_TIME_NONE &&
        collect_next_since(st, o->sacct, clusters, &res->since, err) < 0)
        return -1;
    if (res->since < COLLECT_FIRST_SINCE)
        res->since = COLLECT_FIRST_SINCE;
    SacctCmd cmd;
    if (sacct_cmd(&cmd, o->sacct, err) < 0)
        return -1;
    char since_s[32];
    format_time(res->since, since_s, sizeof since_s);
    snprintf(res->label, sizeof res->label, "sacct since %sZ%s%s", since_s,
             clusters[0] ? " -M " : "", clusters);
    const char *dir = o->tmpdir ? o->tmpdir : getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    if (check_private_data(&cmd, dir, err) < 0)
        return -1;
    int64_t now = (int64_t)time(NULL);
    if (cmd.n > 1 && o->month && collect_months(res->since, now) > 1) {
        /* another machine: the whole window in one sacct, one ssh session,
         * unless slurmdbd refuses so wide a range; then month by month */
        ImportResult r;
        int recorded;
        res->windows = 1;
        if (run_window(st, o, &cmd, dir, res->since, 0, o->progress, res, &r, &recorded, err) ==
            0) {
            add_counts(&res->import, &r);
            res->recorded = recorded;
            res->done = 1;
            if (o->window_done)
                o->window_done(o->window_ctx, res->since, 1, 1, &r);
            return 0;
        }
        if (!too_wide(err->msg))
            return -1;
        res->warning[0] = '\0';
    }
    return run_windows(st, o, &cmd, dir, now, res, err);
}
