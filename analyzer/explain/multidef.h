/*
 * Diagnostics -> the cause of a multiple definition (issue #17, point 7):
 * why two inputs define one symbol, read from both definitions.
 */
#ifndef ANALYZER_MULTIDEF_H
#define ANALYZER_MULTIDEF_H

#include "line.h"
#include "replay.h"

/*
 * For each multiple-definition diagnostic of `out` (a replay of `line`; the first
 * MULTIDEF_EXPLAINED_MAX), its cause (d->cause, explain.h's struct
 * lk_finding, with the stated fix) and two sentences of its explanation;
 * none when the definitions fit no known cause. Part of the explanation
 * stage: freed by lk_explain_diag_release().
 */
void lk_multidef_causes(struct lk_replay *out, const struct lk_line *line);

#endif
