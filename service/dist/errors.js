/** The root of the service's errors; each subclass fixes its code. */
export class ServiceError extends Error {
}
