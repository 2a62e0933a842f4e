/* A tiny C archive: two members, one calling the other, so the group matters. */
int lk_answer_part(void);
int lk_answer(void) { return lk_answer_part() * 2; }
