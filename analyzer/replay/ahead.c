/*
 * Archive members read ahead (see ahead.h): one helper thread, the jobs
 * of the scan pass that runs now in the order it asked for them. The
 * helper reads a job (lk_elf_archive_member_gc, the scan's own call) and
 * leaves the result for the scan; the scan takes it, or reads the member
 * in line when the helper has not started it. At most AHEAD_MAX_HELD
 * results (AHEAD_MAX_BYTES of members) wait untaken: the helper stays a
 * few members ahead of the scan, not a whole archive.
 *
 * On the LLVM line (bench/llvm-line.sh), 1,470 of its 1,861 pulls are
 * members a pass asks for when it starts; reading them beside the scan is
 * what brings the replay under half of mold's link (docs/bench.md).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/spin.h"
#include "linkscope/vec.h"
#include "ahead.h"

/* A job's state is read without the lock while waiting (spin), so every access is atomic. */
enum job_state { JOB_QUEUED, JOB_READING, JOB_DONE, JOB_GONE };
#define STATE(j) __atomic_load_n(&(j)->state, __ATOMIC_ACQUIRE)
#define SET_STATE(j, s) __atomic_store_n(&(j)->state, (s), __ATOMIC_RELEASE)

struct rp_ahead_job {
	struct lk_elf_archive ar;	/* a copy of the scan's, without its libelf handle */
	size_t offset, span;	/* span: the member with its header, up to the next one */
	size_t rank;		/* where the scan will pull it: its armap index (or member index) */
	struct rp_reloc_filter filter;	/* sections.keep_ctx */
	int state;		/* enum job_state */
	int rc;
	char *name;
	struct lk_elf_syms syms;
	struct lk_elf_gc sections;
};

/* How far the helper may run ahead of the scan. */
#define AHEAD_MAX_HELD 64
#define AHEAD_MAX_BYTES ((size_t)64 << 20)
/*
 * How long a thread spins (lk_spin_hint turns) before it sleeps on a
 * condition variable: a member is read in tens of microseconds, and on a
 * VM waking a sleeping thread costs as much (context switches were 7% of
 * the scan's time with no spin); the helper spins longer, as the next
 * pass of a scan comes within a few hundred microseconds.
 */
#define SPIN_TAKE 20000
#define SPIN_IDLE 20000
/* Larger members are read by the main thread: over ELFR_WHOLE_MAX (32 MiB) libelf reads them through a shared handle. */
#define AHEAD_MAX_SPAN ((size_t)16 << 20)

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work;	/* to the helper: a job asked for, room again, or stop */
	pthread_cond_t done;	/* to the scan: a job done */
	struct { struct rp_ahead_job **items; size_t nr, alloc; } jobs;
	size_t next;		/* jobs before it are none of them queued */
	size_t queued;		/* jobs queued, not started or taken */
	size_t cursor;		/* the rank the scan is at (rp_ahead_cursor; read while the helper picks) */
	size_t held, held_bytes;	/* jobs read or being read, not yet taken or dropped */
	int running, busy, stop;
	int posted;		/* a job asked for, or room made, since the helper last looked (read while it spins) */
	int forking;		/* a fork waits: the helper starts nothing */
	pthread_t thread;
} ahead = { .lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER };

static pthread_once_t fork_handlers = PTHREAD_ONCE_INIT;

static void read_job(struct rp_ahead_job *j)
{
	struct lk_err err = LK_ERR_INIT;

	j->rc = lk_elf_archive_member_gc(&j->ar, j->offset, &j->name, &j->syms, &j->sections, &err);
}

/* Read the queued job `j` (under the lock, released while it reads): its result waits, held, to be taken. */
static void read_taken(struct rp_ahead_job *j)
{
	SET_STATE(j, JOB_READING);
	ahead.queued--;
	ahead.held++;
	ahead.held_bytes += j->span;
	pthread_mutex_unlock(&ahead.lock);
	read_job(j);
	pthread_mutex_lock(&ahead.lock);
	SET_STATE(j, JOB_DONE);
}

/*
 * The queued job the scan will want first (under the lock): the lowest
 * rank from where the scan is, then those behind it (its next pass). Jobs
 * are asked for as references appear, not in the scan's order, and taking
 * them in the order asked left the helper reading what the scan wanted
 * last while it read the rest in line.
 */
static struct rp_ahead_job *next_job(void)
{
	size_t cursor = __atomic_load_n(&ahead.cursor, __ATOMIC_RELAXED);
	struct rp_ahead_job *best = NULL;
	size_t best_dist = 0;

	while (ahead.next < ahead.jobs.nr && STATE(ahead.jobs.items[ahead.next]) != JOB_QUEUED)
		ahead.next++;
	for (size_t i = ahead.next; i < ahead.jobs.nr; i++) {
		struct rp_ahead_job *j = ahead.jobs.items[i];
		size_t dist = j->rank - cursor;	/* behind the cursor: far (unsigned wrap) */

		if (STATE(j) == JOB_QUEUED && (!best || dist < best_dist)) {
			best = j;
			best_dist = dist;
			if (!dist)
				break;
		}
	}
	return best;
}

/* Has the helper something to start? (Under the lock.) */
static int work_waits(void)
{
	return !ahead.forking && ahead.queued && ahead.held < AHEAD_MAX_HELD && ahead.held_bytes < AHEAD_MAX_BYTES;
}

static void *helper(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&ahead.lock);
	while (!ahead.stop) {
		struct rp_ahead_job *j;

		if (!work_waits()) {
			pthread_mutex_unlock(&ahead.lock);
			for (int i = 0; i < SPIN_IDLE && !__atomic_load_n(&ahead.posted, __ATOMIC_ACQUIRE); i++)
				lk_spin_hint();
			pthread_mutex_lock(&ahead.lock);
			__atomic_store_n(&ahead.posted, 0, __ATOMIC_RELAXED);
			if (!work_waits() && !ahead.stop)
				pthread_cond_wait(&ahead.work, &ahead.lock);
			continue;
		}
		if (!(j = next_job())) {
			ahead.queued = 0;	/* the scan took them all in line */
			continue;
		}
		ahead.busy = 1;
		read_taken(j);
		ahead.busy = 0;
		pthread_cond_broadcast(&ahead.done);
	}
	pthread_mutex_unlock(&ahead.lock);
	return NULL;
}

/* A fork waits for the helper to end the read it is in: the child gets whole results or none. */
static void before_fork(void)
{
	pthread_mutex_lock(&ahead.lock);
	ahead.forking = 1;
	while (ahead.busy)
		pthread_cond_wait(&ahead.done, &ahead.lock);
}

static void after_fork_parent(void)
{
	ahead.forking = 0;
	__atomic_store_n(&ahead.posted, 1, __ATOMIC_RELEASE);
	pthread_cond_signal(&ahead.work);
	pthread_mutex_unlock(&ahead.lock);
}

/* The child has only the thread that forked: no helper, whose waits the condition variables forget. */
static void after_fork_child(void)
{
	pthread_cond_init(&ahead.work, NULL);
	pthread_cond_init(&ahead.done, NULL);
	ahead.running = 0;
	ahead.stop = 0;
	ahead.forking = 0;
	pthread_mutex_unlock(&ahead.lock);
}

static void register_fork_handlers(void)
{
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

static int allowed = 1;

void rp_ahead_allow(int allow)
{
	allowed = allow;
}

int rp_ahead_enabled(void)
{
	static int known, more;
	cpu_set_t set;

	if (!allowed)
		return 0;
	if (!known) {
		known = 1;
		more = sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1;
	}
	return more;
}

struct rp_ahead_job *rp_ahead_queue(const struct lk_elf_archive *ar, size_t m, size_t rank,
				    const struct lk_elf_gc *reader, const struct rp_reloc_filter *filter)
{
	size_t offset = ar->members.items[m];
	/* The member with its header, up to the next one (or the end). */
	size_t span = (m + 1 < ar->members.nr ? ar->members.items[m + 1] : ar->size) - offset;
	struct rp_ahead_job *j;
	int running;

	if (ar->thin || !span || span > AHEAD_MAX_SPAN || !rp_ahead_enabled())
		return NULL;
	pthread_once(&fork_handlers, register_fork_handlers);
	j = lk_xcalloc(1, sizeof(*j));
	j->ar = *ar;
	j->ar.elf = NULL;
	j->offset = offset;
	j->span = span;
	j->rank = rank;
	j->filter = *filter;
	j->sections = *reader;
	j->sections.keep_ctx = &j->filter;
	pthread_mutex_lock(&ahead.lock);
	if (!ahead.running) {
		ahead.stop = 0;
		ahead.running = pthread_create(&ahead.thread, NULL, helper, NULL) == 0;
	}
	running = ahead.running;
	if (running) {
		LK_GROW(ahead.jobs.items, ahead.jobs.nr + 1, ahead.jobs.alloc);
		ahead.jobs.items[ahead.jobs.nr++] = j;
		ahead.queued++;
		__atomic_store_n(&ahead.posted, 1, __ATOMIC_RELEASE);
		pthread_cond_signal(&ahead.work);
	}
	pthread_mutex_unlock(&ahead.lock);
	if (!running) {
		free(j);
		return NULL;
	}
	return j;
}

static void release_result(struct rp_ahead_job *j)
{
	free(j->name);
	lk_elf_syms_release(&j->syms);
	lk_elf_gc_release(&j->sections);
}

/*
 * While the job the scan wants is being read, the scan reads the next one
 * it will want itself (under the lock; released while it reads): the
 * helper reads a member slower than the scan joins one, and waiting left
 * a tenth of the scan's time idle. 0 when there is none to read.
 */
static int read_one_while_waiting(void)
{
	struct rp_ahead_job *y = ahead.forking ? NULL : next_job();

	if (!y)
		return 0;
	read_taken(y);
	return 1;
}

int rp_ahead_take(struct rp_ahead_job *j, const struct rp_reloc_filter *filter, char **name,
		  struct lk_elf_syms *syms, struct lk_elf_gc *sections)
{
	int taken = 0;

	pthread_mutex_lock(&ahead.lock);
	while (STATE(j) == JOB_READING && read_one_while_waiting())
		;
	pthread_mutex_unlock(&ahead.lock);
	for (int i = 0; i < SPIN_TAKE && STATE(j) == JOB_READING; i++)
		lk_spin_hint();
	pthread_mutex_lock(&ahead.lock);
	while (STATE(j) == JOB_READING)
		pthread_cond_wait(&ahead.done, &ahead.lock);
	if (STATE(j) == JOB_DONE) {
		ahead.held--;
		ahead.held_bytes -= j->span;
		__atomic_store_n(&ahead.posted, 1, __ATOMIC_RELEASE);
		pthread_cond_signal(&ahead.work);
		taken = j->rc == 0 && !memcmp(&j->filter, filter, sizeof(*filter));
		if (taken) {
			*name = j->name;
			*syms = j->syms;
			*sections = j->sections;
			sections->keep_ctx = filter;
		} else {
			release_result(j);
		}
	} else if (STATE(j) == JOB_QUEUED) {
		ahead.queued--;
	}
	SET_STATE(j, JOB_GONE);
	pthread_mutex_unlock(&ahead.lock);
	return taken;
}

void rp_ahead_cursor(size_t rank)
{
	__atomic_store_n(&ahead.cursor, rank, __ATOMIC_RELAXED);
}

void rp_ahead_drop(void)
{
	pthread_mutex_lock(&ahead.lock);
	for (size_t i = 0; i < ahead.jobs.nr; i++)
		if (STATE(ahead.jobs.items[i]) == JOB_QUEUED)
			SET_STATE(ahead.jobs.items[i], JOB_GONE);
	while (ahead.busy)
		pthread_cond_wait(&ahead.done, &ahead.lock);
	for (size_t i = 0; i < ahead.jobs.nr; i++) {
		struct rp_ahead_job *j = ahead.jobs.items[i];

		if (STATE(j) == JOB_DONE) {
			release_result(j);
			ahead.held--;
			ahead.held_bytes -= j->span;
		}
		free(j);
	}
	ahead.jobs.nr = 0;
	ahead.next = 0;
	ahead.queued = 0;
	pthread_mutex_unlock(&ahead.lock);
}

void rp_ahead_stop(void)
{
	int running;

	rp_ahead_drop();
	pthread_mutex_lock(&ahead.lock);
	running = ahead.running;
	ahead.stop = 1;
	pthread_cond_broadcast(&ahead.work);
	pthread_mutex_unlock(&ahead.lock);
	if (running)
		pthread_join(ahead.thread, NULL);
	pthread_mutex_lock(&ahead.lock);
	ahead.running = 0;
	ahead.stop = 0;
	free(ahead.jobs.items);
	ahead.jobs.items = NULL;
	ahead.jobs.alloc = 0;
	pthread_mutex_unlock(&ahead.lock);
}
