/** Contracts of the feedback routes: requests and answers. */
export {};
