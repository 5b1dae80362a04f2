#ifndef CLI_H
#define CLI_H
/* cli: the command table. Each command lives in its own cli/cmd_*.c file
 * and defines one CmdEntry; main.c parses the global options, finds the
 * entry and runs it. exec returns the process exit status: 0 success,
 * 1 the work failed (bad data, I/O), 2 bad usage; main turns a failure
 * into 3 when the database stayed locked by another process past the
 * timeout, and any run into 4 when SQLite found the database corrupt
 * (cli_exit_code). Errors are one line on stderr, written through
 * cli_error. */

#include <stdio.h>

#include "core/cp.h"

typedef struct Store Store;

#define CAPPLAN_VERSION "0.1.0"

typedef struct CliCtx {
    const char *db_path; /* --db, else $CAPPLAN_DB, else ./capplan.db */
    Store *store;        /* opened on first cli_store() call */
    int may_create;      /* 1: the command may create the database (import, collect, demo) */
    int read_only;       /* 1: the command only reads (opened with store_open_read) */
} CliCtx;

typedef struct CmdEntry {
    const char *name;
    const char *usage; /* first line of --help */
    const char *help;  /* the rest of --help */
    int (*exec)(CliCtx *ctx, int argc, char **argv); /* argv[0] is the command name */
} CmdEntry;

/* The database, opened (and migrated) on first use; NULL after printing
 * the error. A command that only reads refuses a file that does not exist
 * (a mistyped --db is not an empty institute). Borrowed: main closes it. */
Store *cli_store(CliCtx *ctx);

/* Exit codes beyond a command's own 0/1/2. */
enum { CLI_EXIT_LOCKED = 3, CLI_EXIT_CORRUPT = 4 };

/* The process's exit status for a command that returned rc: CLI_EXIT_CORRUPT
 * (after one line on stderr when rc was 0) once SQLite found the database
 * corrupt, CLI_EXIT_LOCKED when rc is 1 and a lock wait timed out, else rc. */
int cli_exit_code(const CliCtx *ctx, int rc);

/* "capplan: <message>" on stderr, control characters replaced. When
 * stderr is not a terminal (cron, a log file) the line starts with the
 * local time, "2026-11-25T16:50:01+0100 capplan: ...", unless
 * CAPPLAN_LOG_TIME=0, or $JOURNAL_STREAM is set (journald stamps lines
 * itself) and CAPPLAN_LOG_TIME is not. Returns 1. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What is said on stderr that is no error ("export: r.md written in 0.10
 * s"): as cli_error ("capplan: " and the time stamp off a terminal), and
 * nothing under --quiet. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --quiet (main sets it): nothing on standard output, no note, no progress;
 * errors only. */
void cli_set_quiet(int quiet);
int cli_quiet(void);
/* 1 when progress lines may be drawn: stderr is a terminal and not --quiet. */
int cli_progress(void);
/* Print the usage line on stderr and return 2. When the arguments given to
 * the last cli_wants_help call hold an option that the command's usage and
 * help never mention, and no cli_error line was printed since, it first
 * says "capplan: CMD: unknown option '--x'" (or, for an option the usage
 * shows with a value, given last without one: "CMD: --x needs a value");
 * when it finds no such option either, "CMD: cannot use 'ARGS' (the usage
 * below)", so that every refusal names what was given. The usage line is
 * time-stamped as cli_error's lines are. */
int cli_usage(const CmdEntry *e);
/* 1 when argv holds --help or -h (prints help to stdout). Every command
 * calls it first: it also remembers argc/argv for cli_usage (borrowed; they
 * live as long as main's). */
int cli_wants_help(const CmdEntry *e, int argc, char **argv);

struct cJSON;
/* Print o as JSON and a newline on out, every byte that is not valid UTF-8
 * (names from data are stored as they came) written as '?', so that the
 * output is valid JSON and UTF-8. 0, or -1 when it cannot be written. */
int cli_print_json(const struct cJSON *o, FILE *out);
/* Add "schema": "capplan.NAME/1" to o, a JSON output's top object, as its
 * first key (whenever it is called). Every --json output has one; the
 * number changes when a key is removed or changes meaning. */
struct cJSON;
void cli_json_schema(struct cJSON *o, const char *name);

/* Copy src into dst (size dstsz), replacing control characters (C0, DEL,
 * C1 and ESC sequences' starts) and bytes that are not UTF-8 with '?',
 * keeping valid UTF-8, cut at a character boundary (reports/rtext). */
void cli_sanitize(char *dst, size_t dstsz, const char *src);

extern const CmdEntry cmd_import;
extern const CmdEntry cmd_collect;
extern const CmdEntry cmd_status;
extern const CmdEntry cmd_demo;
extern const CmdEntry cmd_tui;
extern const CmdEntry cmd_profile, cmd_project, cmd_scenario;
extern const CmdEntry cmd_stats;
extern const CmdEntry cmd_export;
extern const CmdEntry cmd_meetings;
extern const CmdEntry cmd_check;
extern const CmdEntry cmd_complete;
extern const CmdEntry cmd_research;
extern const CmdEntry cmd_simulate;

#endif
