// scoring/teacher: the `Teacher` interface and its backends (http.ts, engine.ts, tinker.ts), one
// factory from the config (from-config.ts). See teacher.ts.
export { teacherFromBackend, teacherMismatch, type Teacher, type TeacherBackend, type TeacherScore, type ScoreOptions } from './teacher.ts';
export { createHttpTeacher, type HttpTeacherOptions, type HttpTeacherDialect } from './http.ts';
export { HTTP_DIALECTS, sglangDialect, vllmDialect, type HttpDialect, type ScoreCall } from './dialects.ts';
export { engineTeacherBackend } from './engine.ts';
export { tinkerTeacherBackend } from './tinker.ts';
export { createTeacher, teacherLogprobTemperature, teacherProvider } from './from-config.ts';
export { TEACHER_PROVIDERS, type TeacherProviderSpec } from './providers.ts';
