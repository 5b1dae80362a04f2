#include "cli/cli.h"

#include <cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "data/store/store.h"
#include "reports/rtext.h"

Store *cli_store(CliCtx *ctx)
{
    if (ctx->store)
        return ctx->store;
    CpErr err;
    struct stat sb;
    int exists = stat(ctx->db_path, &sb) == 0;
    if (!ctx->may_create && !exists) {
        cli_error("%s: no such database (capplan import or capplan demo creates one)",
                  ctx->db_path);
        return NULL;
    }
    /* an empty file is not a database (#29): readers refuse it; import,
     * collect and demo make one in it and say so */
    if (exists && S_ISREG(sb.st_mode) && sb.st_size == 0) {
        if (!ctx->may_create) {
            cli_error("%s: an empty file, not a capplan database (capplan import or capplan "
                      "demo creates one)", ctx->db_path);
            return NULL;
        }
        cli_error("%s: an empty file: a new database is created in it", ctx->db_path);
    }
    /* every command but those that create opens a database it cannot write
     * (a read-only file or folder) read-only (#29): its readings work, its
     * edits are refused */
    ctx->store = ctx->read_only || !ctx->may_create ? store_open_read(ctx->db_path, &err)
                                                    : store_open(ctx->db_path, &err);
    if (!ctx->store)
        cli_error("%s", err.msg);
    return ctx->store;
}

int cli_exit_code(const CliCtx *ctx, int rc)
{
    int f = store_fault();
    if (f == STORE_FAULT_CORRUPT) {
        if (rc == 0)
            cli_error("%s: SQLite reports the database corrupt; `capplan check` says where",
                      ctx->db_path);
        return CLI_EXIT_CORRUPT;
    }
    if (f == STORE_FAULT_LOCKED && rc == 1)
        return CLI_EXIT_LOCKED;
    return rc;
}

int cli_print_json(const cJSON *o, FILE *out)
{
    char *text = cJSON_Print(o);
    if (!text)
        return -1;
    /* valid UTF-8 written in runs (one fwrite each, not one a character:
     * stats utilization --json at 1M site jobs, 640 KB); a byte that starts
     * no valid character as '?' */
    const char *run = text, *s = text;
    while (*s) {
        size_t len = (unsigned char)*s < 0x80 ? 1 : rtext_char(s);
        if (len == 0) {
            fwrite(run, 1, (size_t)(s - run), out);
            fputc('?', out);
            run = ++s;
        } else {
            s += len;
        }
    }
    fwrite(run, 1, (size_t)(s - run), out);
    free(text);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}

void cli_json_schema(cJSON *o, const char *name)
{
    char v[96];
    snprintf(v, sizeof v, "capplan.%s/1", name);
    cJSON *s = cJSON_AddStringToObject(o, "schema", v);
    /* first, whenever it is added: moved to the front, its key kept */
    if (s && cJSON_DetachItemViaPointer(o, s))
        cJSON_InsertItemInArray(o, 0, s);
}

void cli_sanitize(char *dst, size_t dstsz, const char *src)
{
    /* controls (C0, DEL, C1) and bytes that are not UTF-8 (a message that
     * cut a character in two) become '?': stderr stays valid UTF-8 (#29) */
    rtext_clean(dst, dstsz, src);
}

/* The running command's arguments, as cli_wants_help saw them, and
 * whether an error line was printed since: cli_usage names an unknown
 * option only when nothing was said yet. */
static int cmd_argc;
static char **cmd_argv;
static int errors_printed;

/* "2026-11-25T16:50:01+0100 " when stderr is not a terminal (a log, cron's
 * mail), unless CAPPLAN_LOG_TIME=0 or journald stamps it ($JOURNAL_STREAM);
 * else "". */
static void log_stamp(char *buf, size_t sz)
{
    buf[0] = '\0';
    const char *want = getenv("CAPPLAN_LOG_TIME");
    if (isatty(STDERR_FILENO) || (want && strcmp(want, "0") == 0))
        return;
    if (!want && getenv("JOURNAL_STREAM"))
        return;
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm) && strftime(buf, sz, "%Y-%m-%dT%H:%M:%S%z ", &tm) == 0)
        buf[0] = '\0';
}

static int quiet;

void cli_set_quiet(int q)
{
    quiet = q;
}

int cli_quiet(void)
{
    return quiet;
}

int cli_progress(void)
{
    return !quiet && isatty(STDERR_FILENO);
}

/* One line "[STAMP ]capplan: MESSAGE" on stderr, control characters out. */
static void say(const char *fmt, va_list ap)
{
    char raw[1024], clean[1024], stamp[40];
    vsnprintf(raw, sizeof raw, fmt, ap);
    cli_sanitize(clean, sizeof clean, raw);
    log_stamp(stamp, sizeof stamp);
    fprintf(stderr, "%scapplan: %s\n", stamp, clean);
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    errors_printed++;
    return 1;
}

void cli_note(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

/* 1 when the option word (up to '=') appears in text as a word of its own. */
static int mentions(const char *text, const char *opt)
{
    size_t n = strcspn(opt, "=");
    for (const char *p = strstr(text, opt); p; p = strstr(p + 1, opt)) {
        char before = p == text ? ' ' : p[-1], after = p[n];
        int word_before = before == ' ' || before == '[' || before == '|' || before == '(' ||
                          before == '\n';
        int word_after = !(after == '-' || (after >= 'a' && after <= 'z') ||
                           (after >= '0' && after <= '9'));
        if (word_before && word_after && strncmp(p, opt, n) == 0)
            return 1;
    }
    return 0;
}

/* 1 when the usage line shows opt followed by a value ("--scenario S"). */
static int takes_value(const char *usage, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = strstr(usage, opt); p; p = strstr(p + 1, opt))
        if (p[n] == ' ' && ((p[n + 1] >= 'A' && p[n + 1] <= 'Z') || (p[n + 1] >= 'a' && p[n + 1] <= 'z')))
            return 1;
    return 0;
}

/* "CMD: cannot use 'A B C' (the usage below)": the arguments given, when
 * nothing more precise was said. */
static void name_arguments(const CmdEntry *e)
{
    char given[512];
    size_t k = 0;
    given[0] = '\0';
    for (int i = 1; i < cmd_argc && k + 1 < sizeof given; i++) {
        int w = snprintf(given + k, sizeof given - k, "%s%s", i > 1 ? " " : "", cmd_argv[i]);
        if (w < 0)
            break;
        k += (size_t)w;
    }
    if (cmd_argc <= 1)
        cli_error("%s: something is missing (the usage below)", e->name);
    else
        cli_error("%s: cannot use '%s' (the usage below)", e->name, given);
}

int cli_usage(const CmdEntry *e)
{
    for (int i = 1; i < cmd_argc && !errors_printed; i++) {
        const char *a = cmd_argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (a[0] != '-' || !a[1] || (a[1] >= '0' && a[1] <= '9') || a[1] == '.')
            continue;
        char opt[128];
        snprintf(opt, sizeof opt, "%.*s", (int)strcspn(a, "="), a);
        if (!mentions(e->usage, opt) && !mentions(e->help, opt)) {
            cli_error("%s: unknown option '%s'", e->name, opt);
            break;
        }
        if (i + 1 == cmd_argc && !strchr(a, '=') && takes_value(e->usage, opt)) {
            cli_error("%s: %s needs a value", e->name, opt);
            break;
        }
    }
    if (!errors_printed)
        name_arguments(e);
    char stamp[40];
    log_stamp(stamp, sizeof stamp);
    fprintf(stderr, "%susage: %s\n", stamp, e->usage);
    return 2;
}

int cli_wants_help(const CmdEntry *e, int argc, char **argv)
{
    cmd_argc = argc;
    cmd_argv = argv;
    errors_printed = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: %s\n%s", e->usage, e->help);
            return 1;
        }
    }
    return 0;
}
