int sysnative_answer(int x) { return x + 41; }
