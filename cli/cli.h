#ifndef CLI_H
#define CLI_H
/* cli: the command table. Each command lives in its own cli/cmd_*.c file
 * and defines one CmdEntry; main.c parses the global options, finds the
 * entry and runs it. exec returns the process exit status: 0 success,
 * 1 the work failed (bad data, I/O), 2 bad usage. Errors are one line on
 * stderr, written through cli_error. */

#include <stdio.h>

#include "core/cp.h"

typedef struct Store Store;

typedef struct CliCtx {
    const char *db_path; /* --db, else $CAPPLAN_DB, else ./capplan.db */
    Store *store;        /* opened on first cli_store() call */
    int may_create;      /* 1: the command may create the database (import, collect, demo) */
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

/* "capplan: <message>" on stderr, control characters replaced. Returns 1. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print usage error and return 2. */
int cli_usage(const CmdEntry *e);
/* 1 when argv holds --help or -h (prints help to stdout). */
int cli_wants_help(const CmdEntry *e, int argc, char **argv);

/* Copy src into dst (size dstsz), replacing control characters (C0, DEL,
 * C1 and ESC sequences' starts) with '?', keeping valid UTF-8. */
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
extern const CmdEntry cmd_research;

#endif
