#ifndef APP_H
#define APP_H
/* app: the dashboard's state and its one loop (htop's ScreenManager_run,
 * tmux's server loop): recalculate what a key invalidated, render into the
 * canvas and paint once if anything is dirty, read a key, dispatch it
 * through the key table (actions.c) to an action that returns TUI_*
 * flags. The terminal is behind TuiIO: term.c provides the curses one, the
 * headless mode (--bench-keys, --iterations) a key script and no screen.
 *
 * Views (view_*.c) render a const TuiState into a Canvas and report where
 * they drew their table in a TuiFrame; they never call curses. The model
 * (TuiModel) never points at a view. Edits go to the database at once
 * (write-through, each its own transaction), so quitting, SIGHUP or a kill
 * loses no accepted edit. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "tui/canvas.h"
#include "data/store/store_tui_watch.h"
#include "data/store/store_undo.h"
#include "tui/model.h"

typedef struct Store Store;
typedef struct TuiPlan TuiPlan;
typedef struct UsageBg UsageBg;
typedef struct JobsBg JobsBg;
typedef struct HeatBg HeatBg;
typedef struct PlanBg PlanBg;
typedef struct StorePolicyPanel StorePolicyPanel;
typedef struct TuiCompare TuiCompare;

/* What an action asks of the loop. */
enum {
    TUI_REDRAW = 1u << 0,  /* paint again */
    TUI_RECALC = 1u << 1,  /* rebuild the current view's rows (filter, sort) */
    TUI_RELOAD = 1u << 2,  /* read the database again */
    TUI_SAVE = 1u << 3,    /* an edit was written to the database */
    TUI_QUIT = 1u << 4
};

typedef enum TuiViewId {
    TUI_V_OVERVIEW,
    TUI_V_GROUPS,
    TUI_V_GROUP,
    TUI_V_PROFILES,
    TUI_V_PROJECTION,
    TUI_V_USAGE,
    TUI_V_SCENARIOS,
    TUI_V_COUNT
} TuiViewId;

#define TUI_MAX_COLS 16
#define TUI_FILTER_MAX 64
#define TUI_PROMPT_MAX 256
#define TUI_BACK_MAX 16
#define TUI_UNDO_MAX 64

/* Where the cursor is in a view's table, and which rows it shows. */
typedef struct TuiCursor {
    int row;               /* selected position in idx */
    int top;               /* first row on screen */
    int col;               /* column under the cursor */
    int sort_col;          /* -1: the table's default order */
    int sort_desc;
    char filter[TUI_FILTER_MAX];
    int *idx;              /* visible model rows after filter and sort (owned) */
    int nidx;
} TuiCursor;

/* What the last render drew where (for paging and mouse clicks). */
typedef struct TuiFrame {
    int table_y, table_h;  /* first body row of the table, rows shown (0: none) */
    int head_y;            /* the table's header row */
    int col_x[TUI_MAX_COLS], col_w[TUI_MAX_COLS]; /* -1: hidden */
    int tab_x[TUI_V_COUNT + 1]; /* tab starts on the tab row, [COUNT] = end */
} TuiFrame;

typedef enum TuiPromptKind {
    TUI_P_NONE,
    TUI_P_FILTER,
    TUI_P_EXPORT,
    TUI_P_EDIT,      /* a value edited in its own form (tui/editform.h) */
    TUI_P_NOTE,
    TUI_P_SCENARIO,  /* the name of a new scenario */
    TUI_P_CONFIRM    /* overwrite the export file (text: its name)? y/n */
} TuiPromptKind;

typedef struct TuiPrompt {
    TuiPromptKind kind;
    char label[160];
    char text[TUI_PROMPT_MAX];
    int at;          /* the cursor: a byte offset in text (tui/lineedit.h) */
    int sel;         /* 1: the whole text is selected (typing replaces it) */
    int row, col;    /* the edited cell (model row, table column) */
    char key[48];    /* the edited parameter's key; TUI_MEETING_KEY: the Group view's
                        meeting line (m) */
    /* TUI_P_SCENARIO opened from an edit of base (tui_plan_offer_scenario):
     * the edit it carries into the new scenario, key of plan group row. */
    int carry;
    double carry_value;
    char carry_reason[TUI_PROMPT_MAX];
} TuiPrompt;

#define TUI_MEETING_KEY "meeting"

/* The Usage view's figures from the jobs (tui/usage_bg.h). */
typedef enum TuiUsageState {
    TUI_USAGE_NONE,      /* not started (no store, or stopped) */
    TUI_USAGE_COMPUTING, /* a worker thread computes them */
    TUI_USAGE_READY,     /* in the model (heat_loaded) and in policy */
    TUI_USAGE_FAILED     /* not available: usage_err says why */
} TuiUsageState;

/* One accepted edit of this session, so that u can take it back and C-r
 * make it again (tui/undo.h). */
typedef enum TuiUndoKind { TUI_U_STATED, TUI_U_NOTE, TUI_U_PARAM, TUI_U_MEETING } TuiUndoKind;

typedef struct TuiUndo {
    TuiUndoKind kind;
    char user[64], group[128], date[16], scenario[64];
    char key[48];            /* the parameter; for a stated need, the date of the one before;
                                for a meeting, the status before */
    int had_before;          /* a value existed before the edit */
    double before[2];        /* the values before */
    double after[2];         /* a stated need: the values the edit wrote */
    char *text;              /* note text; a meeting's attendees before (owned) */
    char *text_after;        /* a meeting's attendees after (owned) */
    char status_after[16];   /* a meeting's status after */
    int gi;                  /* group index (param), -1 global */
    StoreUndoParam pbefore, pafter; /* a parameter before and after the edit (owned) */
    int64_t edit;            /* the parameter's history entry this session wrote last */
} TuiUndo;

typedef struct TuiState {
    TuiModel *model;         /* owned */
    Store *store;            /* borrowed; NULL in unit tests (nothing loads or saves) */
    TuiPlan *plan;           /* the planner's scenario state, NULL when unavailable */
    int plan_pending;        /* the planner is read after the first frame */
    PlanBg *plan_bg;         /* by a worker (tui/plan_bg.h), NULL none */
    char scenario[64];
    TuiViewId view;
    TuiViewId back[TUI_BACK_MAX];
    int nback;
    TuiCursor cur[TUI_V_COUNT];
    TuiCursor jobs_cur;      /* the Group view's member detail */
    int group;               /* the Group view's group (model index), -1 none */
    int institute;           /* the Projection shows the institute, not a group */
    TuiCompare *cmp;         /* the Scenarios view's comparison (owned; tui/compare.h) */
    char cmp_a[64], cmp_b[64]; /* the two compared; "": base and the shown scenario */
    int cmp_picking;         /* 1: c picked the first, the next c picks the second */
    int feat_x, feat_y;      /* the Profiles scatter's features (FEAT_*) */
    int member;              /* the Group view's member shown in detail, -1: the table */
    int help, help_top;      /* help overlay shown, its first line */
    int help_rows, help_page; /* its lines as last drawn, and how many show at once */
    int redact;              /* presentation mode: names replaced by pseudonyms */
    struct AnonScrub *scrub; /* presentation mode's scrubber (tui/redact), owned */
    int ascii;               /* the canvas uses ASCII look-alikes */
    TuiPrompt prompt;
    char status[256];
    char edit_note[160];     /* which reason the last scenario edit carries (tui_plan_set) */
    int status_role;         /* CanvasRole of the message */
    int64_t status_until;    /* ms; 0: no message */
    int64_t now;             /* ms, monotonic, set by the loop */
    int w, h;                /* screen size */
    int mouse_x, mouse_y;    /* the last click */
    TuiFrame frame;
    TuiUndo undo[TUI_UNDO_MAX];  /* this session's edits, the last on top */
    int nundo;
    TuiUndo redo[TUI_UNDO_MAX];  /* edits undone, the last undone on top */
    int nredo;
    /* The Group view's member detail: the member's biggest jobs. */
    StoreTuiJob *jobs;
    int njobs;
    int jobs_user;           /* whose jobs are loaded, -1 none */
    JobsBg *jobs_bg;         /* their read in the background (tui/jobs_bg.h), NULL none */
    struct Research *research; /* who does what research (tui/research.h), NULL: none */
    struct SimNext *sim;     /* next year simulated, base scenario (capplan simulate), read
                                by the planner's worker (tui/plan_bg.c); NULL: sim_why */
    char sim_why[CP_ERR_MAX];
    HeatBg *heat_bg;         /* the heat map's read from the aggregates (tui/heat_bg.h), NULL
                                none (owned) */
    int64_t heat_t0;         /* ms (tui_now_ms) that read started */
    int64_t heat_ms;         /* how long it took, when its figures were the model's first */
    UsageBg *usage_bg;       /* the worker computing the Usage figures, NULL: none (owned) */
    TuiUsageState usage_state;
    int64_t usage_t0;        /* ms (tui_now_ms) the worker started */
    int64_t usage_ms;        /* how long the worker took (READY, FAILED) */
    char usage_err[200];     /* FAILED: why */
    StorePolicyPanel *policy; /* energy and fair-share panel, NULL: not computed (owned) */
    /* Another process's changes (tui/watch.h): the database as last seen. */
    int64_t db_version;      /* PRAGMA data_version */
    StoreTuiSig db_sig;      /* what the views show, summed up */
    int64_t db_edit;         /* the newest scenario edit seen */
    int64_t watch_at;        /* ms of the last check */
} TuiState;

/* The terminal, or a script standing in for it. */
typedef struct TuiIO {
    /* A key within timeout_ms (-1: wait), TUI_KEY_TIMEOUT or TUI_KEY_EOF. */
    int (*read_key)(struct TuiIO *io, int timeout_ms, TuiState *s);
    /* Show the canvas. */
    void (*paint)(struct TuiIO *io, const Canvas *c);
    /* The screen size now. */
    void (*size)(struct TuiIO *io, int *w, int *h);
    void *ctx;
    int sync_bg;   /* 1: the planner and a member's jobs, read in the background, are
                      waited for before the next key, so that a script's keys act on what
                      a person would have waited to see (the headless mode) */
} TuiIO;

/* What a view's frame showed as still coming from a worker. */
enum {
    TUI_PENDING_PLAN = 1u << 0,  /* the planner (Profiles, Projection, Group's plan columns) */
    TUI_PENDING_USAGE = 1u << 1, /* the Usage view's heat map, requested vs used */
    TUI_PENDING_JOBS = 1u << 2,  /* the Group view's member's biggest jobs */
    TUI_PENDING_POLICY = 1u << 3 /* the Usage view's energy and fair-share panel */
};

/* The TUI_PENDING_* bits of what s's current view shows as still coming. */
unsigned tui_pending(const TuiState *s);

/* Per-frame timings, filled by tui_run when not NULL. */
typedef struct TuiTimings {
    double load_ms;          /* reading the database into the model */
    double first_frame_ms;   /* from tui_state_init's start to the first paint */
    double first_frame_cpu_ms; /* the same in CPU time of the main thread: the caller sets
                                  -tui_cpu_ms() at the start, tui_run adds it at the paint */
    double plan_ms;          /* from the first frame to the planner's figures (a worker) */
    double lazy_ms;          /* the slowest load run after a frame (view's after_paint) */
    int usage_switched;      /* usage_switch_ms is measured */
    double usage_switch_ms;  /* the first key to the Usage view: to its frame on the screen */
    /* Each view's first display after a key (the first frame's view is
     * first_frame_ms): key to frame, wall and CPU; what it still waited
     * for then (TUI_PENDING_* bits: a worker's figures it shows later). */
    int view_seen[TUI_V_COUNT];
    double view_ms[TUI_V_COUNT], view_cpu_ms[TUI_V_COUNT];
    unsigned view_pending[TUI_V_COUNT];
    double jobs_key_ms;      /* the first member detail's key to its worker's start */
    double jobs_ms;          /* ... to the frame with the member's jobs (headless only: the
                                script waits for them) */
    double *frame_ms;        /* each later frame: dispatch + recalc + render + paint */
    double *frame_cpu_ms;    /* the same frames' CPU time (this thread; a loaded machine's
                                waits left out) */
    int nframes, capframes;
} TuiTimings;

/* Free what tui_run put into t (its frame arrays). */
void tui_timings_free(TuiTimings *t);

/* Set up s: load the model from st (may be NULL: s->model must then be set
 * by the caller before tui_run), open scenario (NULL: "base"). -1 with err
 * when the database cannot be read. Caller releases with tui_state_done. */
int tui_state_init(TuiState *s, Store *st, const char *scenario, CpErr *err);
void tui_state_done(TuiState *s);

/* Read the planner (profiles, projection, scenario) when it is pending. */
void tui_state_load_plan(TuiState *s);

/* Read the database again (keeps views, cursors, filters). */
int tui_state_reload(TuiState *s, CpErr *err);

/* The loop, until q, F10 or the end of input. max_frames > 0 stops after
 * that many frames (--iterations). Returns the frames painted. */
int tui_run(TuiState *s, TuiIO *io, int max_frames, TuiTimings *t);

/* Render the whole screen (title, tabs, the view, status, function bar,
 * help overlay) into c, sized s->w x s->h; fills s->frame. */
void tui_render(TuiState *s, Canvas *c);

/* Dispatch one key (prompt, help, or the key table). */
unsigned tui_dispatch(TuiState *s, int key);

/* Rebuild the current view's rows (filter and sort) and load what it
 * needs lazily (heat map, a member's jobs). */
void tui_recalc(TuiState *s);

/* The cursor of the table shown now (a view's, or the member detail's). */
TuiCursor *tui_cursor(TuiState *s);
const TuiCursor *tui_cursor_const(const TuiState *s);

/* Show msg on the status line for ms milliseconds; role CV_BAD for errors. */
void tui_status(TuiState *s, int role, int64_t ms, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Milliseconds of a monotonic clock. */
int64_t tui_now_ms(void);
/* CPU time of the calling thread, ms: what a frame cost, whatever else
 * the machine runs. */
double tui_cpu_ms(void);

/* A key script standing in for the terminal (headless mode): keys as
 * tui_key_parse reads them, a fixed screen size; when cycle is set the
 * script starts again at its end (--iterations), else its end is
 * TUI_KEY_EOF. */
typedef struct TuiScript {
    const char *keys, *at;
    int w, h, cycle;
} TuiScript;

void tui_script_io(TuiIO *io, TuiScript *sc, const char *keys, int w, int h, int cycle);

/* The key bindings, for the help overlay and its tests: keys as shown
 * ("Up/k"), what they do. n receives the count. Static storage. */
typedef struct TuiHelpLine {
    const char *keys, *help;
} TuiHelpLine;
const TuiHelpLine *tui_help_lines(int *n);

#endif
