int lk_answer_part(void) { return 21; }
