int lk_answer_part(void) { return 21; }
__thread int lk_counter;
