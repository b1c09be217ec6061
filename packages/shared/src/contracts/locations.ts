/** Contracts of the locations routes: requests and answers. */
export {};
