/*
 * Fix trials from a snapshot: the replay forks a server process at the
 * point where an argument appended to the driver's argv would be read
 * (after the user's last input), and each trial is a fork of that
 * server that reads the trial's arguments and carries on to the end. A
 * trial then costs the tail of the line, not the whole replay. The
 * trials a caller says it will ask for (lk_trial_expect) run at once, as
 * many together as there are CPUs online; each answer is matched to its
 * request, so asking in any order gives each trial its own outcome.
 */
#ifndef ANALYZER_TRIAL_H
#define ANALYZER_TRIAL_H

#include <sys/types.h>

#include "linkscope/strvec.h"

/* A trial sent to the server whose outcome is not asked for yet. */
struct lk_trial_sent {
	unsigned long id;
	struct lk_strvec words;
	int answered;
	struct lk_strvec reply;	/* answered: "1", "0" or "-1" (its worker died), then what is left */
};

struct lk_trial_server {
	pid_t pid;		/* the server, 0 when there is none */
	int fd;			/* the parent's end of the socket, -1 when none; in a worker, its reply's */
	int worker;		/* this process is a trial worker */
	unsigned long next_id;
	struct { struct lk_trial_sent *items; size_t nr, alloc; } sent;
};

/*
 * Fork the server here. Returns in the parent (srv->pid is 0 when the fork
 * failed: trials then replay the whole line), and, in a worker, with
 * srv->worker set and `words` filled with the trial's arguments: the
 * caller reads them, replays to the end and calls lk_trial_reply().
 */
void lk_trial_start(struct lk_trial_server *srv, struct lk_strvec *words);

/* In a worker: send the outcome ("kind symbol" of each diagnostic left) and exit. */
_Noreturn void lk_trial_reply(struct lk_trial_server *srv, int success, const struct lk_strvec *remaining);

/*
 * In the parent: the trial of `words` will be asked for; the server starts
 * it now (or as soon as a CPU is free), so that trials expected together
 * run together. Nothing when there is no server.
 */
void lk_trial_expect(struct lk_trial_server *srv, const struct lk_strvec *words);

/*
 * In the parent: one trial, the answer of an expected one with the same
 * words if there is one (each expectation answers one ask), else sent now.
 * Returns 1 links, 0 fails, -1 not tried from the snapshot (the server is
 * gone, or this trial's worker died): the caller replays the whole line.
 */
int lk_trial_ask(struct lk_trial_server *srv, const struct lk_strvec *words, struct lk_strvec *remaining);

/* Close the socket (the server stops the workers still running) and reap the server. */
void lk_trial_stop(struct lk_trial_server *srv);

/*
 * The socket's messages, for the other forked helpers of the replay too
 * (beside.c): a 4-byte length, then `first` (when not NULL) and `words`
 * NUL-separated; 0, or -1 when the peer is gone. Receiving appends to
 * `words`; -1 at end of file or on a bad message.
 */
int lk_trial_send_words(int fd, const char *first, const struct lk_strvec *words);
int lk_trial_recv_words(int fd, struct lk_strvec *words);

#endif
