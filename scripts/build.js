#!/usr/bin/env node
'use strict';
const { ensureInstalled, ensureBuilt } = require('./ensure-built');
ensureInstalled();
ensureBuilt();
