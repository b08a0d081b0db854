/* The compiled probing kernel of thermomilp.logic (docs/architecture.md, layer 2).
 *
 * The same algorithms as the pure-Python reference, step for step, on flat integer
 * arrays built once per board:
 *
 *   Board.propagate      = intervals.reference_propagate_conflict (revise_line inside)
 *   Board.probe_fixpoint = probing.reference_probe_fixpoint (sweep, probe, shave, the
 *                          witnesses of incremental probes)
 *
 * Same line order (a FIFO queue, lines queued once), same probe order, same witnesses,
 * so the same domains, contradictions, revision counts and calls to ``stop`` -- the
 * work ticks of logic/budget.py -- as the reference. A domain is one uint64 per vessel
 * (bit L: level L possible): thermomilp.logic.propagation only builds a Board when every
 * vessel has at most 63 levels above 0; other boards run the reference.
 *
 * ``stop`` (a Python callable) is called from here at exactly the reference's points:
 * before the first line revision of a propagation and every ``stop_every`` after, and
 * before each vessel a probing sweep visits. Its True raises TimeUp (the class given to
 * Board), its exceptions (OutOfBudget) pass through; ``dom`` then holds the sound partial
 * deductions made so far, as in the reference.
 *
 * Witnesses: the caller's table (a list with one dict per vessel, level -> domain), as
 * in the reference; the domains this kernel stores are bytes (n native uint64), and
 * it reads the reference's lists as well.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define OK_LINE (-1)

static unsigned long long kernel_revisions = 0; /* every line revision, for the tests */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;           /* vessels */
    Py_ssize_t nl;          /* lines (rows, then columns) */
    int *depth;             /* per vessel */
    long long *clue;        /* per line */
    char *clued;            /* per line: 1 if it has a clue */
    Py_ssize_t *ls;         /* per line: first entry (nl + 1) */
    int *ev;                /* per entry: vessel */
    long long **etab;       /* per entry: contribution table (depth + 1 values) */
    uint64_t **eleast;      /* per entry: at_least[x], x = 0..top */
    uint64_t **emost;       /* per entry: at_most[x] */
    long long *tabs;        /* storage of the tables */
    uint64_t *masks;        /* storage of the masks */
    Py_ssize_t *vs;         /* per vessel: first of its lines in vl (n + 1) */
    int *vl;                /* the clued lines of each vessel */
    int *clued_lines;       /* every clued line, in order */
    Py_ssize_t n_clued;
    Py_ssize_t widest;      /* most entries on one line */
    PyObject *time_up;      /* the TimeUp class */
} Board;

/* ------------------------------------------------------------------ scratch */

typedef struct {
    const Board *b;
    int *queue;             /* ring buffer */
    Py_ssize_t cap;
    char *queued;           /* per line */
    char *mark;             /* per line: already in a touched list */
    int *touched;           /* lines to revise after a witness lost levels */
    int *changed;           /* vessels one revision changed */
    long long *lo, *hi;     /* per entry of the line under revision */
} Scratch;

static void scratch_free(Scratch *s)
{
    PyMem_Free(s->queue);
    PyMem_Free(s->queued);
    PyMem_Free(s->mark);
    PyMem_Free(s->touched);
    PyMem_Free(s->changed);
    PyMem_Free(s->lo);
    PyMem_Free(s->hi);
}

static int scratch_init(Scratch *s, const Board *b, Py_ssize_t extra)
{
    Py_ssize_t w = b->widest > 0 ? b->widest : 1;
    memset(s, 0, sizeof *s);
    s->b = b;
    s->cap = b->nl + extra + 1;
    s->queue = PyMem_Malloc(sizeof(int) * s->cap);
    s->queued = PyMem_Calloc(b->nl + 1, 1);
    s->mark = PyMem_Calloc(b->nl + 1, 1);
    s->touched = PyMem_Malloc(sizeof(int) * (b->nl + 1));
    s->changed = PyMem_Malloc(sizeof(int) * w);
    s->lo = PyMem_Malloc(sizeof(long long) * w);
    s->hi = PyMem_Malloc(sizeof(long long) * w);
    if (!s->queue || !s->queued || !s->mark || !s->touched || !s->changed || !s->lo || !s->hi) {
        scratch_free(s);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ the revision */

static inline int low_of(uint64_t m, int depth)
{
    return m ? __builtin_ctzll(m) : depth; /* Python: (0 & -0).bit_length() - 1 == -1 */
}

static inline int high_of(uint64_t m, int depth)
{
    return m ? 63 - __builtin_clzll(m) : depth;
}

/* intervals.revise_line: the number of vessels changed (listed in s->changed), or -1
 * on a contradiction (dom may then hold the cuts made before it, as in the reference). */
static int revise(Scratch *s, uint64_t *dom, int line)
{
    const Board *b = s->b;
    Py_ssize_t first, end, k;
    long long smin = 0, smax = 0, over, under, slack, clue;
    int nch = 0;

    kernel_revisions++;
    if (!b->clued[line])
        return 0;
    clue = b->clue[line];
    first = b->ls[line];
    end = b->ls[line + 1];
    for (k = first; k < end; k++) {
        int v = b->ev[k];
        uint64_t m = dom[v];
        const long long *tab = b->etab[k];
        long long a = tab[low_of(m, b->depth[v])], c = tab[high_of(m, b->depth[v])];
        s->lo[k - first] = a;
        s->hi[k - first] = c;
        smin += a;
        smax += c;
    }
    over = smax - clue;
    under = clue - smin;
    if (over < 0 || under < 0)
        return -1;
    slack = over < under ? over : under;
    for (k = first; k < end; k++) {
        long long a = s->lo[k - first], c = s->hi[k - first];
        int v;
        uint64_t m, keep;
        if (c - a <= slack)
            continue;
        v = b->ev[k];
        m = keep = dom[v];
        if (c - over > a)
            keep &= b->eleast[k][c - over];
        if (a + under < c)
            keep &= b->emost[k][a + under];
        if (!keep)
            return -1;
        if (keep != m) {
            dom[v] = keep;
            s->changed[nch++] = v;
        }
    }
    return nch;
}

/* intervals.propagate_conflict: 0 with *result = OK_LINE or the contradictory line,
 * -1 with a Python exception (stop raised, or said time is up: TimeUp). */
static int propagate_core(Scratch *s, uint64_t *dom, const int *lines, Py_ssize_t count,
                          PyObject *stop, long stop_every, int *result)
{
    const Board *b = s->b;
    Py_ssize_t head = 0, size = 0, i;
    long countdown = 1;
    int status = 0;

    *result = OK_LINE;
    for (i = 0; i < count; i++) {
        s->queue[size++] = lines[i];
        s->queued[lines[i]] = 1;
    }
    while (size > 0) {
        int line, nch, j;
        if (stop != NULL) {
            countdown -= 1;
            if (countdown <= 0) {
                int said;
                PyObject *answer;
                countdown = stop_every;
                answer = PyObject_CallNoArgs(stop);
                if (answer == NULL) {
                    status = -1;
                    break;
                }
                said = PyObject_IsTrue(answer);
                Py_DECREF(answer);
                if (said != 0) {
                    if (said > 0)
                        PyErr_SetNone(b->time_up);
                    status = -1;
                    break;
                }
            }
        }
        line = s->queue[head];
        head = head + 1 == s->cap ? 0 : head + 1;
        size--;
        s->queued[line] = 0;
        nch = revise(s, dom, line);
        if (nch < 0) {
            *result = line;
            break;
        }
        for (j = 0; j < nch; j++) {
            int v = s->changed[j];
            Py_ssize_t t;
            for (t = b->vs[v]; t < b->vs[v + 1]; t++) {
                int other = b->vl[t];
                if (!s->queued[other]) {
                    Py_ssize_t tail = head + size;
                    if (tail >= s->cap)
                        tail -= s->cap;
                    s->queued[other] = 1;
                    s->queue[tail] = other;
                    size++;
                }
            }
        }
    }
    while (size > 0) { /* what a contradiction or a stop left queued */
        s->queued[s->queue[head]] = 0;
        head = head + 1 == s->cap ? 0 : head + 1;
        size--;
    }
    return status;
}

/* ------------------------------------------------------- domains to and fro */

static int read_domains(const Board *b, PyObject *list, uint64_t *out)
{
    Py_ssize_t v;
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != b->n) {
        PyErr_SetString(PyExc_TypeError, "dom must be a list of one int per vessel");
        return -1;
    }
    for (v = 0; v < b->n; v++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(list, v));
        if (m == (unsigned long long)-1 && PyErr_Occurred())
            return -1;
        if (b->depth[v] < 63 && m >> (b->depth[v] + 1)) {
            PyErr_SetString(PyExc_ValueError, "a domain holds a level above its vessel's depth");
            return -1;
        }
        out[v] = m;
    }
    return 0;
}

/* Write back the vessels that changed; -1 on a Python error. */
static int write_domains(const Board *b, PyObject *list, const uint64_t *now,
                         const uint64_t *before)
{
    Py_ssize_t v;
    for (v = 0; v < b->n; v++) {
        if (now[v] != before[v]) {
            PyObject *value = PyLong_FromUnsignedLongLong(now[v]);
            if (value == NULL)
                return -1;
            PyList_SetItem(list, v, value); /* steals value */
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ Board */

static void Board_dealloc(Board *self)
{
    PyMem_Free(self->depth);
    PyMem_Free(self->clue);
    PyMem_Free(self->clued);
    PyMem_Free(self->ls);
    PyMem_Free(self->ev);
    PyMem_Free(self->etab);
    PyMem_Free(self->eleast);
    PyMem_Free(self->emost);
    PyMem_Free(self->tabs);
    PyMem_Free(self->masks);
    PyMem_Free(self->vs);
    PyMem_Free(self->vl);
    PyMem_Free(self->clued_lines);
    Py_XDECREF(self->time_up);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A flat sequence of ints as a new C array (of *count items); NULL on error. */
static long long *ints_of(PyObject *seq, Py_ssize_t *count, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    Py_ssize_t i, size;
    long long *out;
    if (fast == NULL)
        return NULL;
    size = PySequence_Fast_GET_SIZE(fast);
    out = PyMem_Malloc(sizeof(long long) * (size + 1));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (i = 0; i < size; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *count = size;
    return out;
}

static int Board_init(Board *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"depths", "clues", "clued", "line_start", "entry_vessel",
                             "tables", "vessel_start", "vessel_lines", "time_up", NULL};
    PyObject *o_depths, *o_clues, *o_clued, *o_ls, *o_ev, *o_tabs, *o_vs, *o_vl, *time_up;
    long long *depths = NULL, *clues = NULL, *clued = NULL, *ls = NULL, *ev = NULL,
              *tabs = NULL, *vs = NULL, *vl = NULL;
    Py_ssize_t n, nl, n2, ne, ntab, nvs, nvl, i, k, at, mat;
    int ok = -1;

    if (self->depth != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a Board is built once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOO", kwlist, &o_depths, &o_clues,
                                     &o_clued, &o_ls, &o_ev, &o_tabs, &o_vs, &o_vl, &time_up))
        return -1;
    if (!(depths = ints_of(o_depths, &n, "depths")) || !(clues = ints_of(o_clues, &nl, "clues"))
        || !(clued = ints_of(o_clued, &n2, "clued")) || !(ls = ints_of(o_ls, &i, "line_start"))
        || !(ev = ints_of(o_ev, &ne, "entry_vessel")) || !(tabs = ints_of(o_tabs, &ntab, "tables"))
        || !(vs = ints_of(o_vs, &nvs, "vessel_start"))
        || !(vl = ints_of(o_vl, &nvl, "vessel_lines")))
        goto done;
    if (n2 != nl || i != nl + 1 || nvs != n + 1 || ls[0] != 0 || ls[nl] != ne
        || vs[0] != 0 || vs[n] != nvl) {
        PyErr_SetString(PyExc_ValueError, "inconsistent board arrays");
        goto done;
    }
    for (i = 0; i < n; i++)
        if (depths[i] < 0 || depths[i] > 63) {
            PyErr_SetString(PyExc_ValueError, "a vessel deeper than 63 levels");
            goto done;
        }
    for (i = 0; i < nl; i++)
        if (ls[i] > ls[i + 1]) {
            PyErr_SetString(PyExc_ValueError, "inconsistent line_start");
            goto done;
        }
    for (i = 0; i < n; i++)
        if (vs[i] > vs[i + 1]) {
            PyErr_SetString(PyExc_ValueError, "inconsistent vessel_start");
            goto done;
        }
    for (k = 0; k < ne; k++)
        if (ev[k] < 0 || ev[k] >= n) {
            PyErr_SetString(PyExc_ValueError, "an entry names no vessel");
            goto done;
        }
    for (k = 0; k < nvl; k++)
        if (vl[k] < 0 || vl[k] >= nl) {
            PyErr_SetString(PyExc_ValueError, "a vessel line out of range");
            goto done;
        }
    self->n = n;
    self->nl = nl;
    self->depth = PyMem_Malloc(sizeof(int) * (n + 1));
    self->clue = PyMem_Malloc(sizeof(long long) * (nl + 1));
    self->clued = PyMem_Malloc(nl + 1);
    self->ls = PyMem_Malloc(sizeof(Py_ssize_t) * (nl + 1));
    self->ev = PyMem_Malloc(sizeof(int) * (ne + 1));
    self->etab = PyMem_Malloc(sizeof(long long *) * (ne + 1));
    self->eleast = PyMem_Malloc(sizeof(uint64_t *) * (ne + 1));
    self->emost = PyMem_Malloc(sizeof(uint64_t *) * (ne + 1));
    self->tabs = PyMem_Malloc(sizeof(long long) * (ntab + 1));
    self->vs = PyMem_Malloc(sizeof(Py_ssize_t) * (n + 1));
    self->vl = PyMem_Malloc(sizeof(int) * (nvl + 1));
    self->clued_lines = PyMem_Malloc(sizeof(int) * (nl + 1));
    if (!self->depth || !self->clue || !self->clued || !self->ls || !self->ev || !self->etab
        || !self->eleast || !self->emost || !self->tabs || !self->vs || !self->vl
        || !self->clued_lines) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < n; i++)
        self->depth[i] = (int)depths[i];
    self->n_clued = 0;
    self->widest = 0;
    for (i = 0; i < nl; i++) {
        self->clue[i] = clues[i];
        self->clued[i] = clued[i] != 0;
        self->ls[i] = ls[i];
        if (self->clued[i])
            self->clued_lines[self->n_clued++] = (int)i;
        if (ls[i + 1] - ls[i] > self->widest)
            self->widest = ls[i + 1] - ls[i];
    }
    self->ls[nl] = ls[nl];
    for (i = 0; i <= n; i++)
        self->vs[i] = vs[i];
    for (i = 0; i < nvl; i++)
        self->vl[i] = (int)vl[i];
    memcpy(self->tabs, tabs, sizeof(long long) * ntab);
    /* the tables, then the masks of each (domains._masks: linear in the table) */
    at = 0;
    mat = 0;
    for (k = 0; k < ne; k++) {
        int d = (int)depths[ev[k]];
        long long top, x;
        self->ev[k] = (int)ev[k];
        if (at + d + 1 > ntab) {
            PyErr_SetString(PyExc_ValueError, "tables shorter than the vessels' depths");
            goto done;
        }
        self->etab[k] = NULL; /* set below, once the storage no longer moves */
        top = tabs[at + d];
        for (x = 0; x <= d; x++)
            if (tabs[at + x] < 0 || tabs[at + x] > top || (x && tabs[at + x] < tabs[at + x - 1])) {
                PyErr_SetString(PyExc_ValueError, "a contribution table is not monotone");
                goto done;
            }
        at += d + 1;
        mat += 2 * (top + 1);
    }
    if (at != ntab) {
        PyErr_SetString(PyExc_ValueError, "tables longer than the vessels' depths");
        goto done;
    }
    self->masks = PyMem_Calloc(mat + 1, sizeof(uint64_t));
    if (self->masks == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    at = 0;
    mat = 0;
    for (k = 0; k < ne; k++) {
        int d = self->depth[self->ev[k]];
        long long *tab = self->tabs + at, top = tab[d], x;
        uint64_t *least = self->masks + mat, *most = least + (top + 1), acc;
        self->etab[k] = tab;
        self->eleast[k] = least;
        self->emost[k] = most;
        /* exact levels per count into `most`, then accumulated from either end */
        for (x = 0; x <= d; x++)
            most[tab[x]] |= (uint64_t)1 << x;
        acc = 0;
        for (x = top; x >= 0; x--) {
            acc |= most[x];
            least[x] = acc;
        }
        acc = 0;
        for (x = 0; x <= top; x++) {
            acc |= most[x];
            most[x] = acc;
        }
        at += d + 1;
        mat += 2 * (top + 1);
    }
    Py_INCREF(time_up);
    self->time_up = time_up;
    ok = 0;
done:
    PyMem_Free(depths);
    PyMem_Free(clues);
    PyMem_Free(clued);
    PyMem_Free(ls);
    PyMem_Free(ev);
    PyMem_Free(tabs);
    PyMem_Free(vs);
    PyMem_Free(vl);
    return ok;
}

static int board_ready(Board *self)
{
    if (self->time_up == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the Board was not built");
        return 0;
    }
    return 1;
}

/* The lines to start from: None (every clued line) or an iterable of line numbers. */
static int *lines_of(Board *self, PyObject *lines, Py_ssize_t *count)
{
    PyObject *it, *item;
    Py_ssize_t size = 0, cap;
    int *out;
    if (lines == Py_None) {
        out = PyMem_Malloc(sizeof(int) * (self->n_clued + 1));
        if (out == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        memcpy(out, self->clued_lines, sizeof(int) * self->n_clued);
        *count = self->n_clued;
        return out;
    }
    cap = self->nl + 1;
    out = PyMem_Malloc(sizeof(int) * cap);
    it = PyObject_GetIter(lines);
    if (out == NULL || it == NULL) {
        PyMem_Free(out);
        Py_XDECREF(it);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    while ((item = PyIter_Next(it)) != NULL) {
        Py_ssize_t line = PyLong_AsSsize_t(item);
        Py_DECREF(item);
        if (line == -1 && PyErr_Occurred())
            break;
        if (line < 0 || line >= self->nl) {
            PyErr_SetString(PyExc_IndexError, "line number out of range");
            break;
        }
        if (size == cap) {
            int *more = PyMem_Realloc(out, sizeof(int) * cap * 2);
            if (more == NULL) {
                PyErr_NoMemory();
                break;
            }
            out = more;
            cap *= 2;
        }
        out[size++] = (int)line;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        PyMem_Free(out);
        return NULL;
    }
    *count = size;
    return out;
}

PyDoc_STRVAR(propagate_doc,
"propagate(dom, lines, stop, stop_every) -> int\n\n"
"intervals.propagate_conflict: the interval fixpoint in place; -1 (OK) or the line\n"
"found contradictory. ``stop`` (or None) is asked before the first revision and every\n"
"``stop_every`` after; its True raises TimeUp.");

static PyObject *Board_propagate(Board *self, PyObject *args)
{
    PyObject *list, *lines, *stop;
    long stop_every;
    Py_ssize_t count = 0;
    int *start = NULL, result = OK_LINE, status;
    uint64_t *dom = NULL, *before = NULL;
    Scratch s;

    if (!board_ready(self) || !PyArg_ParseTuple(args, "OOOl", &list, &lines, &stop, &stop_every))
        return NULL;
    if (stop == Py_None)
        stop = NULL;
    dom = PyMem_Malloc(sizeof(uint64_t) * (2 * self->n + 1));
    if (dom == NULL)
        return PyErr_NoMemory();
    before = dom + self->n;
    if (read_domains(self, list, dom) < 0) {
        PyMem_Free(dom);
        return NULL;
    }
    memcpy(before, dom, sizeof(uint64_t) * self->n);
    start = lines_of(self, lines, &count);
    if (start == NULL) {
        PyMem_Free(dom);
        return NULL;
    }
    if (scratch_init(&s, self, count) < 0) {
        PyMem_Free(start);
        PyMem_Free(dom);
        return NULL;
    }
    status = propagate_core(&s, dom, start, count, stop, stop_every, &result);
    scratch_free(&s);
    PyMem_Free(start);
    {   /* the domains reached, also when stopped: sound partial deductions */
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        if (write_domains(self, list, dom, before) < 0) {
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(trace);
            status = -1;
        } else {
            PyErr_Restore(type, value, trace);
        }
    }
    PyMem_Free(dom);
    if (status < 0)
        return NULL;
    return PyLong_FromLong(result);
}

/* ---------------------------------------------------------------- probing */

typedef struct {
    Board *b;
    Scratch s;
    uint64_t *dom;          /* the node's domains */
    uint64_t *trial;
    uint64_t *wit;          /* a witness read from a list */
    const uint64_t *known;  /* or NULL */
    PyObject *table;        /* list of dicts, or NULL: probes from scratch */
    PyObject *levels[64];   /* the ints 0..63 */
} Probing;

/* probing.refuted / probing.probe: 1 if v = level is refuted, 0 if not, -1 on error. */
static int refutes(Probing *p, int v, int level)
{
    const Board *b = p->b;
    Py_ssize_t n = b->n, u, t, nt = 0;
    int differs = 0;
    const int *lines;
    Py_ssize_t count;
    int result;
    PyObject *mine = NULL, *key = p->levels[level], *w = NULL;
    const uint64_t *old = NULL;

    if (p->table != NULL) {
        mine = PyList_GET_ITEM(p->table, v);
        if (!PyDict_Check(mine)) {
            PyErr_SetString(PyExc_TypeError, "a witness table holds one dict per vessel");
            return -1;
        }
        w = PyDict_GetItemWithError(mine, key); /* borrowed; no Python code runs below */
        if (w == NULL && PyErr_Occurred())
            return -1;
    }
    if (w == NULL) {
        memcpy(p->trial, p->dom, sizeof(uint64_t) * n);
        p->trial[v] = (uint64_t)1 << level;
        lines = b->vl + b->vs[v];
        count = b->vs[v + 1] - b->vs[v];
    } else {
        if (PyBytes_Check(w) && PyBytes_GET_SIZE(w) == (Py_ssize_t)(n * sizeof(uint64_t))) {
            old = (const uint64_t *)PyBytes_AS_STRING(w);
        } else if (PyList_Check(w) && PyList_GET_SIZE(w) == n) { /* the reference's witness */
            if (read_domains(b, w, p->wit) < 0)
                return -1;
            old = p->wit;
        } else {
            PyErr_SetString(PyExc_TypeError, "a witness is no domain of this board");
            return -1;
        }
        for (u = 0; u < n; u++) {
            uint64_t a = old[u] & p->dom[u];
            p->trial[u] = a;
            if (a != old[u]) {
                differs = 1;
                if (!a) {
                    for (t = 0; t < nt; t++)
                        p->s.mark[p->s.touched[t]] = 0;
                    if (PyDict_DelItem(mine, key) < 0)
                        return -1;
                    return 1;
                }
                for (t = b->vs[u]; t < b->vs[u + 1]; t++) {
                    int line = b->vl[t];
                    if (!p->s.mark[line]) {
                        p->s.mark[line] = 1;
                        p->s.touched[nt++] = line;
                    }
                }
            }
        }
        if (!differs)
            return 0; /* nothing lost since: the witness is still a fixpoint */
        /* (levels lost only by vessels on no clued line: no line to revise, and the
         * smaller domain is kept as the witness, as the reference keeps it) */
        for (t = 0; t < nt; t++)
            p->s.mark[p->s.touched[t]] = 0;
        lines = p->s.touched;
        count = nt;
    }
    if (propagate_core(&p->s, p->trial, lines, count, NULL, 0, &result) < 0)
        return -1;
    if (mine == NULL)
        return result != OK_LINE;
    if (result == OK_LINE) {
        PyObject *kept = PyBytes_FromStringAndSize((const char *)p->trial,
                                                   (Py_ssize_t)(n * sizeof(uint64_t)));
        int bad;
        if (kept == NULL)
            return -1;
        bad = PyDict_SetItem(mine, key, kept);
        Py_DECREF(kept);
        return bad < 0 ? -1 : 0;
    }
    if (w != NULL && PyDict_DelItem(mine, key) < 0)
        return -1;
    return 1;
}

/* probing._shave: 0, or -1 on error */
static int shave(Probing *p, int v, uint64_t known)
{
    int end;
    for (end = 0; end < 2; end++) {
        for (;;) {
            uint64_t d = p->dom[v];
            int level = end == 0 ? __builtin_ctzll(d) : 63 - __builtin_clzll(d);
            uint64_t bit = (uint64_t)1 << level;
            int r;
            if (d == bit || (bit & known))
                break;
            r = refutes(p, v, level);
            if (r < 0)
                return -1;
            if (!r)
                break;
            p->dom[v] = d & ~bit;
        }
    }
    return 0;
}

PyDoc_STRVAR(probe_fixpoint_doc,
"probe_fixpoint(dom, stop, known, table, ends_only) -> bool\n\n"
"probing.probe_fixpoint: interval fixpoint plus probing (or shaving), in place; False\n"
"when the board has no solution. ``table``: the node's witnesses (a list of one dict\n"
"per vessel) or None (probes from scratch). ``stop`` (or None) is asked before each\n"
"vessel the sweep visits; its True raises TimeUp.");

static PyObject *Board_probe_fixpoint(Board *self, PyObject *args)
{
    PyObject *list, *stop, *known_list, *table, *answer = NULL;
    int ends_only, result, i, status = 0, alive = 1;
    Py_ssize_t n = self->n, v, quiet;
    uint64_t *store = NULL, *before, *known = NULL;
    Probing p;

    if (!board_ready(self)
        || !PyArg_ParseTuple(args, "OOOOp", &list, &stop, &known_list, &table, &ends_only))
        return NULL;
    if (stop == Py_None)
        stop = NULL;
    if (table != Py_None && (!PyList_Check(table) || PyList_GET_SIZE(table) != n)) {
        PyErr_SetString(PyExc_TypeError, "witnesses: a list of one dict per vessel, or None");
        return NULL;
    }
    memset(&p, 0, sizeof p);
    p.b = self;
    store = PyMem_Malloc(sizeof(uint64_t) * (5 * n + 1));
    if (store == NULL)
        return PyErr_NoMemory();
    p.dom = store;
    before = store + n;
    p.trial = store + 2 * n;
    p.wit = store + 3 * n;
    if (read_domains(self, list, p.dom) < 0) {
        PyMem_Free(store);
        return NULL;
    }
    memcpy(before, p.dom, sizeof(uint64_t) * n);
    if (known_list != Py_None) {
        known = store + 4 * n;
        if (!PyList_Check(known_list) || PyList_GET_SIZE(known_list) != n) {
            PyErr_SetString(PyExc_TypeError, "known: a list of one int per vessel, or None");
            PyMem_Free(store);
            return NULL;
        }
        for (v = 0; v < n; v++) {
            /* a level mask: only its low 64 bits can meet a domain */
            known[v] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(known_list, v));
            if (known[v] == (uint64_t)-1 && PyErr_Occurred()) {
                PyMem_Free(store);
                return NULL;
            }
        }
    }
    p.known = known;
    p.table = table == Py_None ? NULL : table;
    for (i = 0; i < 64; i++)
        p.levels[i] = NULL;
    for (i = 0; i < 64; i++) {
        p.levels[i] = PyLong_FromLong(i);
        if (p.levels[i] == NULL)
            goto fail;
    }
    if (scratch_init(&p.s, self, self->nl) < 0)
        goto fail;
    if (propagate_core(&p.s, p.dom, self->clued_lines, self->n_clued, NULL, 0, &result) < 0)
        goto fail_scratch;
    if (result != OK_LINE) {
        alive = 0;
        goto finish;
    }
    /* sweep: round and round the vessels until each was tested since the last erasure */
    v = 0;
    quiet = 0;
    while (quiet < n) {
        uint64_t m = p.dom[v];
        if (stop != NULL) {
            PyObject *said = PyObject_CallNoArgs(stop);
            int yes;
            if (said == NULL)
                goto fail_scratch;
            yes = PyObject_IsTrue(said);
            Py_DECREF(said);
            if (yes < 0)
                goto fail_scratch;
            if (yes) {
                PyErr_SetString(self->time_up, "probing stopped at its deadline");
                goto fail_scratch;
            }
        } else if (PyErr_CheckSignals() < 0) {
            goto fail_scratch;
        }
        quiet++;
        if (m & (m - 1)) {
            if (ends_only) {
                if (shave(&p, (int)v, known ? known[v] : 0) < 0)
                    goto fail_scratch;
            } else {
                uint64_t open = known ? m & ~known[v] : m;
                while (open) {
                    int level = __builtin_ctzll(open), r;
                    open &= open - 1;
                    r = refutes(&p, (int)v, level);
                    if (r < 0)
                        goto fail_scratch;
                    if (r)
                        p.dom[v] &= ~((uint64_t)1 << level);
                }
            }
            if (p.dom[v] != m) {
                quiet = 0;
                if (!p.dom[v]) {
                    alive = 0;
                    goto finish;
                }
                if (propagate_core(&p.s, p.dom, self->vl + self->vs[v],
                                   self->vs[v + 1] - self->vs[v], NULL, 0, &result) < 0)
                    goto fail_scratch;
                if (result != OK_LINE) {
                    alive = 0;
                    goto finish;
                }
            }
        }
        v = v + 1 == n ? 0 : v + 1;
    }
finish:
    answer = PyBool_FromLong(alive);
    goto done_scratch;
fail_scratch:
    status = -1;
done_scratch:
    scratch_free(&p.s);
    goto done;
fail:
    status = -1;
done:
    for (i = 0; i < 64; i++)
        Py_XDECREF(p.levels[i]);
    {   /* the domains reached, also when stopped: sound partial deductions */
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        if (write_domains(self, list, p.dom, before) < 0) {
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(trace);
            Py_CLEAR(answer);
            status = -1;
        } else {
            PyErr_Restore(type, value, trace);
        }
    }
    PyMem_Free(store);
    if (status < 0) {
        Py_XDECREF(answer);
        return NULL;
    }
    return answer;
}

static PyObject *Board_get_n_vessels(Board *self, void *closure)
{
    (void)closure;
    return PyLong_FromSsize_t(self->n);
}

static PyMethodDef Board_methods[] = {
    {"propagate", (PyCFunction)Board_propagate, METH_VARARGS, propagate_doc},
    {"probe_fixpoint", (PyCFunction)Board_probe_fixpoint, METH_VARARGS, probe_fixpoint_doc},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef Board_getset[] = {
    {"n_vessels", (getter)Board_get_n_vessels, NULL, "vessels of the board", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "thermomilp.logic._kernel.Board",
    .tp_basicsize = sizeof(Board),
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One board's line tables as flat arrays (built by thermomilp.logic.propagation).",
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
    .tp_init = (initproc)Board_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *revisions(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromUnsignedLongLong(kernel_revisions);
}

static PyMethodDef module_methods[] = {
    {"revisions", revisions, METH_NOARGS,
     "revisions() -> int: line revisions made by this process's compiled kernel so far."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "thermomilp.logic._kernel",
    "The compiled probing kernel (see thermomilp.logic.propagation).", -1, module_methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    PyObject *m;
    if (PyType_Ready(&BoardType) < 0)
        return NULL;
    m = PyModule_Create(&kernel_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0) {
        Py_DECREF(&BoardType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_DEPTH", 63) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
