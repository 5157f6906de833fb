// jest setup of the PGlite project: startTestApp opens an embedded database (see jest.pglite.config.js).
process.env['SVC_TEST_DATABASE'] = 'pglite';
