import type { ServerText } from '@hpc/contracts';

/** efile's messages for the occasion, in both languages (DECISIONS.md, "Server messages"). */
export const EfileText = {
  // Requests and the worker's wire
  malformedSmallFilesRequest: { en: 'A malformed request of small files', zh: '小文件请求格式错误' },
  malformedSmallFilesAnswer: { en: 'A malformed answer of small files', zh: '小文件应答格式错误' },
  rangeNotSatisfiable: { en: 'Requested range not satisfiable', zh: '请求的范围无法满足' },
  ticketForTokenHeaderOnly: {
    en: 'A ticket is issued for the token header only',
    zh: '仅为请求头中的令牌签发票据',
  },
  ticketInvalid: { en: 'The download ticket is invalid or expired', zh: '下载票据无效或已过期' },
  downloadKeyInvalid: { en: 'The download key is invalid or expired', zh: '下载密钥无效或已过期' },
  chooseFilesToDownload: { en: 'Choose files to download', zh: '请选择要下载的文件' },

  // Names and paths
  nameBlank: { en: 'The name must not be blank', zh: '名称不能全为空格' },
  nameTooLong: (max: number) => ({
    en: `The name must be at most ${max} characters`,
    zh: `名称长度不能超过 ${max} 个字符`,
  }),
  /** The file system's ENAMETOOLONG. */
  nameTooLongForFs: { en: 'The name is too long', zh: '名称过长' },
  nameNotModified: { en: 'Name not modified!', zh: '名称未修改！' },
  nameReserved: { en: 'This name is reserved for unfinished uploads', zh: '该名称保留给未完成的上传' },
  emptyRelativePath: { en: 'Empty relative path', zh: '相对路径为空' },
  unknownSortColumn: (column: string) => ({
    en: `Unknown sort column ${column}`,
    zh: `未知的排序列：${column}`,
  }),

  // Files and folders
  isNotAFolder: (path: string) => ({ en: `${path} is not a folder`, zh: `${path} 不是文件夹` }),
  notARegularFile: { en: 'Not a regular file', zh: '不是普通文件' },
  notRegularFifo: {
    en: 'Not a regular file: FIFOs, sockets and devices are not read or written',
    zh: '不是普通文件：不读写 FIFO、套接字和设备文件',
  },
  // What is not a regular file, named (file-ops' notRegular: a folder opened for a raw preview is not a FIFO).
  folderNotFile: { en: 'This is a folder, not a file', zh: '这是文件夹，不是文件' },
  fifoNotFile: {
    en: 'This is a FIFO (named pipe), not a regular file: it is not read or written',
    zh: '这是 FIFO（命名管道），不是普通文件，不读写',
  },
  socketNotFile: {
    en: 'This is a socket, not a regular file: it is not read or written',
    zh: '这是套接字，不是普通文件，不读写',
  },
  deviceNotFile: {
    en: 'This is a device file, not a regular file: it is not read or written',
    zh: '这是设备文件，不是普通文件，不读写',
  },
  linkNotFile: { en: 'This is a symbolic link, not a regular file', zh: '这是符号链接，不是普通文件' },
  /** mkdir or touch under a file: the parent path is not a folder. */
  parentNotAFolder: { en: 'The parent path is not a folder', zh: '上级路径不是文件夹' },
  onlyFilesOpened: { en: 'Only files can be opened', zh: '只能打开文件' },
  onlyFilesEdited: { en: 'Only files can be edited', zh: '只能编辑文件' },
  notUtf8Text: { en: 'This file is not UTF-8 text', zh: '该文件不是 UTF-8 文本' },
  notPlainText: {
    en: 'This file holds too many control characters to be shown as text',
    zh: '该文件含有过多控制字符，无法作为文本显示',
  },
  commandNeedsPage: {
    en: "Linux commands are made from the portal's page, not with a fast-transfer token",
    zh: 'Linux 命令须在门户页面中生成，不能使用快传令牌生成',
  },
  changedSinceOpened: {
    en: 'The file changed since it was opened; reload it before saving',
    zh: '文件在打开后已被修改，请重新加载后再保存',
  },
  fileBeingSaved: {
    en: 'The file is being saved by another request; try again',
    zh: '文件正由另一个请求保存，请稍后重试',
  },
  changedSinceSized: { en: 'The file changed since its size was sent', zh: '文件在告知大小后已被修改' },
  changedWhileRead: { en: 'The file changed while it was read', zh: '文件在读取过程中被修改' },
  beyondFileSystem: {
    en: 'The file would be larger than the file system allows',
    zh: '文件将超过文件系统允许的大小',
  },
  checksumDiffers: { en: 'The checksum of the file differs', zh: '文件的校验和不一致' },
  folderMovedWhileChanged: {
    en: 'The folder moved while it was being changed',
    zh: '文件夹在修改过程中被移动',
  },
  folderMovedWhileListed: {
    en: 'The folder moved while it was being listed',
    zh: '文件夹在列出过程中被移动',
  },
  folderMovedWhileRead: { en: 'The folder moved while it was being read', zh: '文件夹在读取过程中被移动' },
  folderReplacedWhileRead: {
    en: 'A folder was replaced while it was being read',
    zh: '文件夹在读取过程中被替换',
  },
  folderTooDeep: (max: number) => ({
    en: `The folder is nested more than ${max} levels deep: archive it with tar instead`,
    zh: `文件夹嵌套超过 ${max} 层，请改用 tar 打包`,
  }),
  folderIntoItself: { en: 'A folder cannot go into itself', zh: '不能将文件夹放入其自身' },
  selectionTooManyFiles: (limit: number) => ({
    en: `The selection has more than ${limit} files: use the fast-transfer client or the Linux command to download it`,
    zh: `所选文件超过 ${limit} 个，请使用快传客户端或 Linux 命令下载`,
  }),
  tarMalformed: { en: 'The tar stream is truncated or malformed', zh: 'tar 数据流不完整或格式错误' },
  noSuchOperation: { en: 'No such operation', zh: '操作不存在' },

  // Uploads: the chunks of the web's uploader and their multipart body
  multipartFieldsTooLarge: {
    en: 'Malformed multipart body: the fields are too large',
    zh: 'multipart 请求体格式错误：字段过大',
  },
  multipartTooManyFields: {
    en: 'Malformed multipart body: too many fields',
    zh: 'multipart 请求体格式错误：字段过多',
  },
  multipartEndedBeforeFile: {
    en: 'Malformed multipart body: the body ended before the file part',
    zh: 'multipart 请求体格式错误：请求体在文件部分之前结束',
  },
  multipartNoFilePart: {
    en: 'Malformed multipart body: no file part',
    zh: 'multipart 请求体格式错误：没有文件部分',
  },
  multipartBadBoundary: {
    en: 'Malformed multipart body: bad boundary line',
    zh: 'multipart 请求体格式错误：分隔行无效',
  },
  multipartNoDisposition: {
    en: 'Malformed multipart body: a part without Content-Disposition',
    zh: 'multipart 请求体格式错误：有部分缺少 Content-Disposition',
  },
  sendChunkAsMultipart: {
    en: 'Send the chunk as multipart/form-data with a file part',
    zh: '请以含文件部分的 multipart/form-data 发送分片',
  },
  invalidChunkParams: { en: 'Invalid chunk parameters', zh: '分片参数无效' },
  chunkTooLarge: { en: 'The chunk is larger than the server allows', zh: '分片超过服务器允许的大小' },
  chunkIncomplete: { en: 'The chunk arrived incomplete', zh: '分片不完整' },
  chunkEndedEarly: {
    en: 'The request ended before the chunk was complete',
    zh: '分片尚未传完请求就已结束',
  },
  chunkSizeNotAnnounced: {
    en: 'The chunk is not the size its currentChunkSize announced',
    zh: '分片大小与 currentChunkSize 不符',
  },
  inconsistentChunkNumbers: { en: 'Inconsistent chunk numbers', zh: '分片编号不一致' },
  inconsistentChunkSize: { en: 'Inconsistent chunk size', zh: '分片大小不一致' },
  folderTooManyFiles: (limit: number) => ({
    en: `The folder has more than ${limit} files: package it (zip or tar) before uploading, or use the fast-transfer client`,
    zh: `文件夹中的文件超过 ${limit} 个，请打包（zip 或 tar）后上传，或使用快传客户端`,
  }),
  chunksMissing: { en: 'Not every chunk is stored yet', zh: '尚有分片未保存' },
  uploadBeingFinalized: { en: 'The upload is being finalized', zh: '上传正在完成' },
  noSuchUpload: { en: 'No such upload', zh: '上传任务不存在' },
  uploadInProgress: {
    en: 'Another upload to this name is in progress: wait for it to finish or cancel it',
    zh: '另一个同名上传正在进行，请等待其完成或将其取消',
  },
  uploadEnded: {
    en: 'This upload was cancelled or replaced by another upload of the same name: upload the file again',
    zh: '该上传已被取消或被另一个同名上传替代，请重新上传',
  },
  uploadBeingBegun: {
    en: 'Another upload to this name is starting; try again',
    zh: '另一个同名上传正在开始，请重试',
  },
  targetMovedDuringUpload: {
    en: 'The target folder moved during the upload',
    zh: '目标文件夹在上传过程中被移动',
  },
  partialNotRegular: { en: 'The partial file is not a regular file', zh: '上传中的临时文件不是普通文件' },

  // Fast transfer: files sent in ranges, small files in batches
  fastransOutsideHome: { en: 'Use fast transfer within your home directory', zh: '请在家目录内使用快传' },
  noWritePermission: (path: string) => ({
    en: `No permission to write in ${path}`,
    zh: `没有 ${path} 的写权限`,
  }),
  noSuchRange: { en: 'No such range', zh: '分段不存在' },
  rangeBeingWritten: { en: 'This range is being written by another send', zh: '该分段正由另一次发送写入' },
  rangeTakenOver: { en: 'The range was taken over by another send', zh: '该分段已被另一次发送接管' },
  rangeIncomplete: { en: 'The range arrived incomplete', zh: '分段不完整' },
  rangeChecksumDiffers: { en: 'The checksum of the range differs', zh: '分段的校验和不一致' },
  rangesMissing: { en: 'Not every range is stored yet', zh: '尚有分段未保存' },
  digestRequired: { en: 'sha256 or rangesSha256 is required', zh: '缺少 sha256 或 rangesSha256' },
  digestRangeTooLarge: {
    en: 'A range with its digest is one range of at most 64 MiB',
    zh: '带摘要的请求只能请求一个范围，且不超过 64 MiB',
  },
  fileBeingFinalized: { en: 'The file is being finalized', zh: '文件正在完成上传' },
  finalizeLockLost: { en: 'The finalize lock was lost; try again', zh: '完成上传的锁已丢失，请重试' },
  uploadedChecksumDiffers: { en: 'The checksum of the uploaded file differs', zh: '上传文件的校验和不一致' },
  batchStartsWith: (name: string) => ({ en: `A batch starts with ${name}`, zh: `批次须以 ${name} 开头` }),
  tooManyRangesHeld: {
    en: 'Too many ranges of yours are waiting to be read: ask again in a moment',
    zh: '您有过多数据块等待读取，请稍后重试',
  },
  batchManifestInvalid: {
    en: "The batch's manifest is not the JSON the protocol names",
    zh: '批次清单不是协议规定的 JSON',
  },
  onlyFilesAndFolders: { en: 'Only files and folders are accepted', zh: '只接受文件和文件夹' },
  noChecksumForFile: { en: 'No checksum for this file', zh: '该文件没有校验和' },

  // Shares
  shareValidityEmpty: { en: 'Share validity period cannot be empty', zh: '分享有效期不能为空' },
  shareValidityIncorrect: {
    en: 'Please enter the correct share validity period',
    zh: '请输入正确的分享有效期',
  },
  shareValidityTooLong: (days: number) => ({
    en: `The maximum period of share validity is ${days} days`,
    zh: `分享有效期最长为 ${days} 天`,
  }),
  extractionCodeFormat: {
    en: 'The extraction code must be 4 to 16 letters or digits',
    zh: '提取码须为 4 到 16 位字母或数字',
  },
  shareIdOrPathRequired: { en: 'shareId or path is required', zh: '缺少 shareId 或 path' },
  noSuchShare: { en: 'No such share', zh: '分享不存在' },
  sharedItemGone: { en: 'The shared item is no longer available', zh: '分享的内容已不可用' },
  shareTokenExpired: {
    en: 'The share token is missing or expired: enter the extraction code again',
    zh: '分享令牌缺失或已过期，请重新输入提取码',
  },
  tooManyOpenUploads: (max: number) => ({
    en: `Too many uploads in progress: at most ${max} at once; let some finish or cancel them, then try again`,
    zh: `进行中的上传过多：同时最多 ${max} 个；请等待部分完成或取消后再试`,
  }),
  tooManyShares: (max: number) => ({
    en: `You have ${max} open shares, the most one user may have: close some and share again`,
    zh: `您已有 ${max} 个有效的分享，已达每位用户的上限：请先关闭一些分享再分享`,
  }),
  tooManySharePaths: (max: number) => ({
    en: `At most ${max} paths can be checked for shares at once`,
    zh: `一次最多检查 ${max} 个路径是否有分享`,
  }),

  // Linux commands
  uploadPathRequired: { en: 'Please enter the upload file or folder path', zh: '请输入上传文件或文件夹路径' },
  accountExpired: { en: 'The account has expired', zh: '账户已过期' },
  commandExpired: { en: 'The command has expired: generate a new one', zh: '命令已过期，请重新生成' },
  commandRevoked: { en: 'The command has been revoked: generate a new one', zh: '命令已被撤销，请重新生成' },
  commandInvalid: { en: 'The command is no longer valid: generate a new one', zh: '命令已失效，请重新生成' },
} satisfies Record<string, ServerText | ((...values: never[]) => ServerText)>;
